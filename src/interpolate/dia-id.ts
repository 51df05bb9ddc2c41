/** A problem with a host evidence id, reported instead of dropped or crashed on. */
export interface EvidenceWarning {
  /** Where: e.g. `qa[12].evidence[0]` or `observation.session_3_observation.Caroline[2]`. */
  path: string;
  value: string;
  /**
   * `split`: several ids in one string, split and remapped; `malformed`: kept unchanged;
   * `dangling`: well-formed but no such turn in the host; `host_order`: two host sessions away
   * from the insertion point are not in time order (reported, left as they are); `speaker`: an
   * inserted turn spoken by the wrong person (see `insertedSpeakerProblems`).
   */
  kind: 'split' | 'malformed' | 'dangling' | 'host_order' | 'speaker';
  message: string;
}

const STRICT = /^D(\d+):(\d+)$/;
const TOKEN = /^D(\d+):(\d+)$/;

/**
 * Parses one LoCoMo evidence string. Well-formed `D<s>:<t>` → one id; several ids separated by
 * `;`, `,` or spaces (`"D8:6; D9:17"`, `"D9:1 D4:4 D4:6"`) → `split`; anything else (`"D"`,
 * `"D:11:26"`) → `malformed` (kept as is; guessing could point at the wrong turn).
 *
 * @example parseEvidence('D8:6; D9:17') // { kind: 'split', ids: [{session: 8, turn: 6}, {session: 9, turn: 17}] }
 */
export function parseEvidence(
  value: string,
): { kind: 'ok' | 'split'; ids: Array<{ session: number; turn: number }> } | { kind: 'malformed' } {
  const strict = STRICT.exec(value);
  if (strict !== null) return { kind: 'ok', ids: [{ session: Number(strict[1]), turn: Number(strict[2]) }] };
  const tokens = value.split(/[;,\s]+/).filter((token) => token !== '');
  if (tokens.length > 1 && tokens.every((token) => TOKEN.test(token))) {
    return {
      kind: 'split',
      ids: tokens.map((token) => {
        const match = TOKEN.exec(token)!;
        return { session: Number(match[1]), turn: Number(match[2]) };
      }),
    };
  }
  return { kind: 'malformed' };
}

/**
 * Reports consecutive sessions whose times do not strictly increase (the host's own ordering;
 * inserted sessions are already placed strictly between their neighbours).
 *
 * @example orderWarnings([{ label: 'session_1', ms: 2 }, { label: 'session_2', ms: 1 }]) // one host_order warning
 */
export function orderWarnings(sessions: ReadonlyArray<{ label: string; ms: number }>): EvidenceWarning[] {
  const warnings: EvidenceWarning[] = [];
  for (let i = 1; i < sessions.length; i++) {
    const previous = sessions[i - 1]!;
    const current = sessions[i]!;
    if (!(current.ms > previous.ms)) {
      warnings.push({
        path: current.label,
        value: new Date(current.ms).toISOString(),
        kind: 'host_order',
        message: `starts at or before ${previous.label} (${new Date(previous.ms).toISOString()})`,
      });
    }
  }
  return warnings;
}
