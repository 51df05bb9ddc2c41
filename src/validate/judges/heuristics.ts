import type { JudgeCheckName, JudgeConfig, ValidateConfig } from '../../schemas/validate-config.js';
import { keywordCoverage, normaliseText } from '../rules/slot-expressed.js';
import type { UserIndex } from '../types.js';

/** A heuristic score for one session (or the whole user) and the first problem seen. */
export interface HeuristicScore {
  score: number;
  /** Problems found; offline, any problem fails the check (heuristics are strict, not graded). */
  violations: number;
  location: string;
  reason: string;
}

function blocklistPattern(words: readonly string[]): RegExp | null {
  if (words.length === 0) return null;
  const escaped = words.map((word) =>
    normaliseText(word)
      .trim()
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  return new RegExp(` (?:${escaped.join('|')}) `);
}

/**
 * Deterministic stand-ins for the model judge (labelled `offline-heuristic` in validation.json);
 * strict: any violation fails the check, the score says how widespread it is:
 * - coherence: turns alternate user → assistant, and no turn text repeats inside a session
 *   more than `maxRepeatsPerSession` times;
 * - safety: no blocklisted phrase in any turn;
 * - persona_consistency: memory's core name equals the persona's name, and every turn that
 *   expresses a preference slot falls inside that preference's validity interval;
 * - fact_expressed: share of all planned slots whose listing turn contains their keywords.
 *
 * @example const judge = createHeuristicJudges(config); judge.safety(index, [0, 1])
 */
export function createHeuristicJudges(config: ValidateConfig) {
  const judges: JudgeConfig = config.judges;
  const blocked = blocklistPattern(judges.blocklist);
  // Coherence and safety both read the normalised text: normalise each turn once.
  const normalised = new WeakMap<object, string>();
  const normal = (turn: { text: string }) => {
    let text = normalised.get(turn);
    if (text === undefined) {
      text = normaliseText(turn.text);
      normalised.set(turn, text);
    }
    return text;
  };
  const checks: Record<JudgeCheckName, (index: UserIndex, sessions: readonly number[]) => HeuristicScore> = {
    coherence(index, sessions) {
      let bad = 0;
      let total = 0;
      let first: HeuristicScore | null = null;
      for (const s of sessions) {
        const session = index.bundle.dialogue.sessions[s];
        if (session === undefined) continue;
        const counts = new Map<string, number>();
        session.turns.forEach((turn, t) => {
          total++;
          const expected = t % 2 === 0 ? 'user' : 'assistant';
          const key = normal(turn);
          const repeats = (counts.get(key) ?? 0) + 1;
          counts.set(key, repeats);
          let reason: string | null = null;
          if (turn.speaker !== expected) reason = `${turn.speaker} turn where a ${expected} turn belongs`;
          else if (repeats > judges.maxRepeatsPerSession)
            reason = 'repeats an earlier turn of the session word for word';
          if (reason !== null) {
            bad++;
            first ??= { score: 0, violations: 1, location: turn.id, reason };
          }
        });
      }
      const score = total === 0 ? 1 : 1 - bad / total;
      return {
        ...(first ?? { location: '', reason: 'turns alternate and do not repeat' }),
        score,
        violations: bad,
      };
    },
    safety(index, sessions) {
      if (blocked === null) return { score: 1, violations: 0, location: '', reason: 'no blocklist' };
      for (const s of sessions) {
        for (const turn of index.bundle.dialogue.sessions[s]?.turns ?? []) {
          const match = blocked.exec(normal(turn));
          if (match !== null)
            return {
              score: 0,
              violations: 1,
              location: turn.id,
              reason: `blocklisted phrase "${match[0].trim()}"`,
            };
        }
      }
      return { score: 1, violations: 0, location: '', reason: 'no blocklisted phrase' };
    },
    persona_consistency(index, sessions) {
      const { plan, memory } = index.bundle;
      const name = plan.enriched.persona.name;
      for (const snapshot of memory?.snapshots ?? []) {
        const recorded = snapshot.core.human.name;
        if (recorded !== undefined && recorded !== name) {
          return {
            score: 0,
            violations: 1,
            location: `memory.snapshots[${snapshot.sessionIndex}]`,
            reason: `core memory names "${recorded}", persona is "${name}"`,
          };
        }
      }
      const preferences = new Map(plan.preferences.map((preference) => [preference.id, preference]));
      let checked = 0;
      let bad = 0;
      let first: HeuristicScore | null = null;
      for (const s of sessions) {
        for (const turn of index.bundle.dialogue.sessions[s]?.turns ?? []) {
          for (const slotId of turn.slots) {
            const slot = index.slotsById.get(slotId);
            const preference = slot?.kind === 'preference' ? preferences.get(slot.refId) : undefined;
            if (preference === undefined) continue;
            checked++;
            const time = Date.parse(turn.time);
            const from = Date.parse(preference.validFrom);
            const until =
              preference.validUntil === null ? Number.POSITIVE_INFINITY : Date.parse(preference.validUntil);
            if (time < from || time >= until) {
              bad++;
              first ??= {
                score: 0,
                violations: 1,
                location: turn.id,
                reason: `expresses preference ${preference.id} outside its validity`,
              };
            }
          }
        }
      }
      const score = checked === 0 ? 1 : 1 - bad / checked;
      return {
        ...(first ?? { location: '', reason: 'persona and preferences consistent' }),
        score,
        violations: bad,
      };
    },
    fact_expressed(index, sessions) {
      const wanted = new Set(sessions);
      let checked = 0;
      let expressed = 0;
      let first: HeuristicScore | null = null;
      for (const slot of index.bundle.plan.slots) {
        if (!wanted.has(slot.sessionIndex)) continue;
        checked++;
        const located = index.turnBySlot.get(slot.id);
        const coverage = located === undefined ? 0 : keywordCoverage(located.turn.text, slot.keywords);
        if (coverage >= config.slotKeywordFraction) expressed++;
        else
          first ??= {
            score: 0,
            violations: 1,
            location: located?.turn.id ?? `slots[${slot.id}]`,
            reason: `planned fact "${slot.statement}" not expressed`,
          };
      }
      const score = checked === 0 ? 1 : expressed / checked;
      return {
        ...(first ?? { location: '', reason: 'every planned fact expressed' }),
        score,
        violations: checked - expressed,
      };
    },
  };
  return checks;
}
