import { questionProfile } from '../../export/question-profile.js';
import { snapshotAt } from '../../export/render.js';
import { promptSnapshotTime } from '../../export/samples.js';
import type { RuleCheck, RuleFailure } from '../types.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiled answer patterns (no `g` flag, so `test` keeps no state between calls). */
const phrases = new Map<string, RegExp>();

/** The profile in lower case and its lines, for the last profile asked (the questions of a user share a few). */
let lastProfile: { text: string; lower: string; lines: string[] } | null = null;
function lowerProfile(profile: string): { lower: string; lines: string[] } {
  if (lastProfile?.text !== profile) {
    const lower = profile.toLowerCase();
    lastProfile = { text: profile, lower, lines: lower.split('\n') };
  }
  return lastProfile;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * False when no line can match the answer's pattern: an ASCII answer matches, case-insensitively,
 * only where the lower-cased profile contains it in lower case, or where a long s (ſ, the one
 * character that is neither ASCII nor lowered to ASCII but folds to it) stands for an s. Most answers are in no profile line,
 * and `includes` is far cheaper than testing the pattern line by line.
 */
function mayContain(lower: string, answer: string): boolean {
  return !ASCII.test(answer) || lower.includes(answer.toLowerCase()) || lower.includes('\u017f');
}

/**
 * True when a line of the profile states the answer: as a whole phrase (word boundaries), and for
 * answers of one or two words ("Colleague", "In progress") only beside the question's subject
 * (one of its retrieval keywords), since a bare common word elsewhere gives nothing away.
 */
export function leaks(profile: string, answer: string, subject: readonly string[]): boolean {
  let phrase = phrases.get(answer);
  if (phrase === undefined) {
    if (phrases.size >= 10_000) phrases.clear();
    phrase = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(answer)}(?![\\p{L}\\p{N}])`, 'iu');
    phrases.set(answer, phrase);
  }
  const { lower, lines } = lowerProfile(profile);
  if (!mayContain(lower, answer)) return false;
  const short = answer.split(/\s+/).length <= 2;
  const words = subject
    .map((word) => word.toLowerCase())
    .filter((word) => word.length > 2 && !answer.includes(word));
  return lines.some(
    (line) =>
      phrase.test(line) && (!short || words.length === 0 || words.some((word) => line.includes(word))),
  );
}

/**
 * No shortcut through the system prompt: the profile a question's prompt shows (the memory state
 * before the evidence it tests, src/export/samples.ts) never contains the planned answer. A model
 * trained on a prompt that holds the answer learns to copy it instead of retrieving it.
 *
 * @example goldInPromptCheck.run(indexUser(bundle), options)
 */
export const goldInPromptCheck: RuleCheck = {
  name: 'gold_in_prompt',
  description: 'no question shows its answer in the system prompt',
  run({ bundle }) {
    const memory = bundle.memory;
    if (memory === null) return [];
    const failures: RuleFailure[] = [];
    for (const qa of bundle.plan.qa) {
      const answer = qa.answer
        .trim()
        .replace(/[.!]+$/, '')
        .toLowerCase();
      if (qa.answerType === 'binary' || answer.length < 4) continue;
      const snapshot = snapshotAt(memory.snapshots, promptSnapshotTime(bundle.plan, qa));
      if (leaks(questionProfile(snapshot, bundle.plan, qa), answer, qa.retrievalKeywords))
        failures.push({
          check: 'gold_in_prompt',
          userId: bundle.plan.userId,
          location: `plan.qa[${qa.id}]`,
          reason: `the system prompt's profile (memory at ${snapshot?.time ?? 'start'}) contains the answer "${qa.answer}"`,
        });
    }
    return failures;
  },
};
