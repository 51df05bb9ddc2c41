/**
 * How long `estimate` takes an assistant reply to be. The estimate walks the pipeline with the
 * offline realizer's text, but a model writes the reply length its prompt asks for
 * (`synth.replyWords`), not the offline realizer's (about 50 words, against 40 asked by default;
 * the difference compounds: every later prompt — the next chunk's last turns, the memory
 * teacher's session, the session judge — re-sends the replies). So each offline reply is sized as
 * a model following the prompt writes it: whole sentences, added while it is shorter than the
 * length asked for (the offline reply's own sentences, repeated when it runs out). User turns stay
 * as written: they carry the planned facts a model's must carry too.
 *
 * @example sizeReply('One two three. Four five.', 4) // 'One two three. Four five.'
 */
export function sizeReply(reply: string, words: number): string {
  const sentences = reply.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g)?.map((part) => part.trim()) ?? [];
  const usable = sentences.filter((part) => part !== '');
  if (usable.length === 0) return reply;
  const count = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
  const parts: string[] = [];
  for (let i = 0; count(parts.join(' ')) < words; i++) parts.push(usable[i % usable.length] as string);
  return parts.join(' ');
}
