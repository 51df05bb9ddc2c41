/**
 * The fake judge's answers to the label prompts of model-written text
 * (src/memory/gold/online-labels/, src/synth/round-labels/): from what the fake wrote into each
 * message (./written.ts), never from cue words in the text — a message it did not write shows
 * nothing it can vouch for.
 */
import { BIG_FIVE_TRAITS } from '../../../schemas/common.js';
import type { FakeChatRequest } from '../server.js';
import { promptContent } from './text.js';
import { writtenIn } from './written.js';

const MESSAGE = /^MESSAGE (\S+) \(session \d+, round \d+\): (.*)$/gm;

/** `personality_evidence` (personality-evidence/1): the grades of the traits the fake let show, null for the rest. */
export function personalityAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'MESSAGE ');
  return {
    messages: [...prompt.matchAll(MESSAGE)].map((m) => {
      const traits = writtenIn(m[2]!)?.traits ?? {};
      return {
        id: m[1]!,
        ...Object.fromEntries(BIG_FIVE_TRAITS.map((trait) => [trait, traits[trait] ?? null])),
        quote: Object.keys(traits).length > 0 ? m[2]!.slice(0, 120) : '',
      };
    }),
  };
}
