import type { Turn } from '../../schemas/dialogue.js';
import type { QaTarget } from '../../schemas/plan.js';
import type { ExportBundle } from '../read-run.js';

/** What the evaluation sets are made from: a user's plan and dialogue (never the memory record). */
export type EvalSource = Pick<ExportBundle, 'plan' | 'dialogue'>;

/** `latest_preference_recognition` → "Latest Preference Recognition". */
export function titleCase(name: string): string {
  return name
    .split(/[_\s-]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
}

/** The turn expressing each evidence slot of a target (first listing turn), with its session. */
export function evidenceTurns(
  bundle: EvalSource,
  qa: QaTarget,
): Array<{ turn: Turn; sessionIndex: number; position: number }> {
  const wanted = new Set(qa.evidenceSlotIds);
  const found: Array<{ turn: Turn; sessionIndex: number; position: number }> = [];
  bundle.dialogue.sessions.forEach((session, sessionIndex) => {
    session.turns.forEach((turn, position) => {
      for (const slot of turn.slots) {
        if (wanted.delete(slot)) found.push({ turn, sessionIndex, position });
      }
    });
  });
  return found;
}

/** Removes `<image>` placeholders (formats that carry images beside the text). */
export function stripImagePlaceholders(text: string): string {
  return text
    .replaceAll('<image>', '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
