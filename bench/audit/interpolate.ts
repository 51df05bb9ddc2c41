/**
 * Audit of `persona-forge interpolate --format locomo` output (issue 13): compares the merged
 * file with its host and prints one JSON object with
 * - `conversationsWithInsert` of `conversations`: host conversations that received sessions;
 * - `distinctInserts`: how many different inserted conversations there are (one generated user
 *   per host conversation makes this equal to `conversationsWithInsert`);
 * - `assistantTurns`, `assistantByHostSpeaker`: inserted assistant turns (odd turns: the realizer
 *   alternates user, assistant) and how many of them a host speaker speaks;
 * - `userTurns`, `userNotOneHostSpeaker`: inserted user turns not spoken by the one host speaker
 *   that speaks the conversation's first inserted user turn (or by no host speaker at all).
 * - `nameMentions`: inserted turns that still say the generated user's own name (given
 *   `plan.jsonl`, conversation c's user is record c mod n) instead of the host speaker's.
 * Run: `npx --no-install tsx bench/audit/interpolate.ts <host.json> <merged.json> [plan.jsonl]`.
 */
import { readFileSync } from 'node:fs';

type Json = Record<string, unknown>;
const [hostPath, mergedPath, planPath] = process.argv.slice(2);
const names =
  planPath === undefined
    ? []
    : readFileSync(planPath, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) =>
          String((JSON.parse(line) as { enriched: { persona: { name: string } } }).enriched.persona.name),
        );
const load = (path: string): Json[] => {
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  return (Array.isArray(value) ? value : [value]) as Json[];
};
const host = load(hostPath!);
const merged = load(mergedPath!);
const sessionsOf = (conversation: Json): Json[][] =>
  Object.keys(conversation)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((m) => m !== null && Array.isArray(conversation[m[0]]))
    .map((m) => Number(m![1]))
    .sort((a, b) => a - b)
    .map((n) => conversation[`session_${n}`] as Json[]);
const out = {
  conversations: host.length,
  conversationsWithInsert: 0,
  distinctInserts: 0,
  insertedSessions: 0,
  userTurns: 0,
  userNotOneHostSpeaker: 0,
  assistantTurns: 0,
  assistantByHostSpeaker: 0,
  nameMentions: 0,
  speakers: [] as string[],
};
const signatures = new Set<string>();
host.forEach((record, c) => {
  const before = sessionsOf(record.conversation as Json);
  const conversation = merged[c]!.conversation as Json;
  const after = sessionsOf(conversation);
  const n = after.length - before.length;
  if (n <= 0) return;
  out.conversationsWithInsert++;
  out.insertedSessions += n;
  const hostSpeakers = [conversation.speaker_a, conversation.speaker_b].map(String);
  let position = before.findIndex(
    (session, s) => JSON.stringify(session[0]?.text) !== JSON.stringify(after[s]?.[0]?.text),
  );
  if (position < 0) position = before.length;
  const inserted = after.slice(position, position + n);
  signatures.add(JSON.stringify(inserted.map((s) => s.map((t) => t.text))));
  const userSpeaker = String(inserted[0]?.[0]?.speaker);
  const used = new Set<string>();
  for (const session of inserted)
    session.forEach((turn, t) => {
      const speaker = String(turn.speaker);
      used.add(speaker);
      const name = names.length === 0 ? undefined : names[c % names.length]!;
      if (name !== undefined && String(turn.text).includes(name)) out.nameMentions++;
      if (t % 2 === 0) {
        out.userTurns++;
        if (speaker !== userSpeaker || !hostSpeakers.includes(speaker)) out.userNotOneHostSpeaker++;
      } else {
        out.assistantTurns++;
        if (hostSpeakers.includes(speaker)) out.assistantByHostSpeaker++;
      }
    });
  out.speakers.push(`#${c}: host ${hostSpeakers.join(' & ')}; inserted ${[...used].join(' & ')}`);
});
out.distinctInserts = signatures.size;
console.log(JSON.stringify(out, null, 2));
