import type { FakeChatRequest } from '../server.js';
import { plantedIn } from './planted.js';
import { promptContent } from './text.js';

const ROUND = /^ROUND (\d+) USER MESSAGE: (.*)$/gm;
const QUESTION =
  /^QUESTION (\S+) \(round (\d+)\): Does the message say that the user (?:no longer )?(?:likes|dislikes) (.+?)(?:, only .*?)?(?:, because .*)?\?$/gm;

/**
 * `meaning_entailment` (src/synth/meaning-judge.ts): the fake judge answers from what it wrote —
 * "opposite" for a message it planted as a contradiction of that item, "yes" when the message
 * names the item, "no" otherwise.
 */
export function entailmentAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'QUESTION ');
  const rounds = new Map([...prompt.matchAll(ROUND)].map((m) => [Number(m[1]), m[2]!]));
  const answers = [...prompt.matchAll(QUESTION)].map((m) => {
    const message = rounds.get(Number(m[2])) ?? '';
    const item = m[3]!.toLowerCase();
    const words = item.split(/\s+/).filter((w) => w.length > 3);
    const named =
      message.toLowerCase().includes(item) || words.some((w) => message.toLowerCase().includes(w));
    // The question names the plan's item; what was planted is the item as the fake read it from
    // the statement: either may carry words the other leaves out ("food delivery" / "ordering food delivery").
    const opposite = [...plantedIn(message)].some(
      (planted) => planted === item || planted.includes(item) || item.includes(planted),
    );
    const says = opposite ? 'opposite' : named ? 'yes' : 'no';
    return { id: m[1]!, says, quote: named ? message.slice(0, 120) : '' };
  });
  return { answers };
}
