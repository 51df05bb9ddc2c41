import type { DialogueSession } from '../schemas/dialogue.js';
import type { EvidenceWarning } from './dia-id.js';

type Json = Record<string, unknown>;

/** Who speaks the inserted turns of a LoCoMo host: the generated user and the assistant. */
export interface SpeakerMapping {
  /** A host speaker (`speaker_a` by default): the generated user becomes this person. */
  user: string;
  /** The assistant's name: a partner of the user who is not a host speaker (`Assistant`). */
  assistant: string;
}

const ASSISTANT = 'Assistant';

/**
 * The default mapping for a LoCoMo record: the generated user speaks as the host's `speaker_a`,
 * the assistant as `Assistant` — never as the host's other speaker, who is the user's friend,
 * not their assistant (a host whose own second speaker is `Assistant`, like a user's own dialogue
 * converted to LoCoMo, keeps it).
 *
 * @example defaultSpeakers({ speaker_a: 'Caroline', speaker_b: 'Melanie' }) // { user: 'Caroline', assistant: 'Assistant' }
 */
export function defaultSpeakers(conversation: Json): SpeakerMapping {
  return { user: hostSpeakers(conversation)[0] ?? 'A', assistant: ASSISTANT };
}

/** The host's speakers (`speaker_a`, `speaker_b`). */
export function hostSpeakers(conversation: Json): string[] {
  return [conversation.speaker_a, conversation.speaker_b].filter((s) => s != null).map(String);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rewrites the generated user's own name in an inserted turn as the host speaker they become:
 * the full name first, then the first name alone (whole words only).
 *
 * @example renameUser('Okay, Huang Fang, noted.', 'Huang Fang', 'Caroline') // 'Okay, Caroline, noted.'
 */
export function renameUser(text: string, from: string | undefined, to: string): string {
  if (from === undefined || from.trim() === '' || from === to) return text;
  const first = from.trim().split(/\s+/)[0]!;
  return text
    .replace(new RegExp(`\\b${escapeRegExp(from.trim())}\\b`, 'g'), to)
    .replace(new RegExp(`\\b${escapeRegExp(first)}\\b`, 'g'), to);
}

/**
 * Checks who speaks the inserted sessions of a merged LoCoMo record (`numbers` = their
 * `session_<n>` numbers, `sessions` = what was inserted, in order): every user turn by the one
 * host speaker the user maps to, every assistant turn by the assistant, who is no host person
 * (a host speaker named `Assistant` is the host's own assistant),
 * and no inserted turn still saying the generated user's own name. Returns `speaker` warnings.
 *
 * @example insertedSpeakerProblems(merged.conversation, [4, 5], insert.sessions, mapping, 'Huang Fang') // []
 */
export function insertedSpeakerProblems(
  conversation: Json,
  numbers: readonly number[],
  sessions: readonly DialogueSession[],
  mapping: SpeakerMapping,
  userName?: string,
): EvidenceWarning[] {
  const problems: EvidenceWarning[] = [];
  const host = hostSpeakers(conversation);
  const warn = (path: string, value: string, message: string) =>
    problems.push({ path, value, kind: 'speaker', message });
  if (!host.includes(mapping.user))
    warn(
      'speakers.user',
      mapping.user,
      `the generated user must be one of the host speakers (${host.join(', ')})`,
    );
  if (
    mapping.assistant === mapping.user ||
    (host.includes(mapping.assistant) && mapping.assistant !== ASSISTANT)
  )
    warn(
      'speakers.assistant',
      mapping.assistant,
      "the assistant is a host speaker: the host's own person speaks its lines",
    );
  const first = userName?.trim().split(/\s+/)[0];
  numbers.forEach((number, j) => {
    const turns = conversation[`session_${number}`];
    const planned = sessions[j]?.turns ?? [];
    if (!Array.isArray(turns)) return;
    (turns as Json[]).forEach((turn, t) => {
      const path = `conversation.session_${number}[${t}]`;
      const role = planned[t]?.speaker;
      const expected = role === 'user' ? mapping.user : role === 'assistant' ? mapping.assistant : undefined;
      if (expected !== undefined && turn.speaker !== expected)
        warn(
          `${path}.speaker`,
          String(turn.speaker),
          `the ${role} speaks as "${expected}" in every inserted turn`,
        );
      const text = String(turn.text ?? '');
      if (
        first !== undefined &&
        first !== mapping.user &&
        new RegExp(`\\b${escapeRegExp(first)}\\b`).test(text)
      )
        warn(`${path}.text`, first, `says the generated user's own name instead of "${mapping.user}"`);
    });
  });
  return problems;
}
