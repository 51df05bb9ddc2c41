/**
 * Issue 27's memory-target figures (items 4 and 9): personality-inference targets read from the
 * evidence their step shows, and session-end targets (episodes, procedural, core memory) that say
 * what the session says. Counted per user, folded by the fidelity meter.
 */

import { inferPersonality, PERSONALITY_WINDOW, readMessage } from '../memory/gold/personality-reading.js';
import { indexPlan } from '../memory/gold/plan-index.js';
import { BIG_FIVE_TRAITS, type BigFive } from '../schemas/common.js';
import { defect, type FidelityFigure } from './fidelity-figures.js';
import {
  coreTemplateProblems,
  episodeTopicProblems,
  proceduralGoalProblems,
} from './rules/memory-targets.js';
import { personalityMessages } from './rules/personality-evidence.js';
import type { UserIndex } from './types.js';

export function emptyTargetCounts() {
  return {
    personalityScored: 0,
    personalityProfileEqual: 0,
    personalityWrongSide: 0,
    personalityExtremes: 0,
    personalityThinExtremes: 0,
    personalityExtraverted: 0,
    personalityExclaimOnly: 0,
    episodes: 0,
    episodesMislabelled: 0,
    proceduralEntries: 0,
    proceduralFinished: 0,
    coreValues: 0,
    coreTemplates: 0,
  };
}
export type TargetCounts = ReturnType<typeof emptyTargetCounts>;

const isBigFive = (value: unknown): value is BigFive =>
  value !== null &&
  typeof value === 'object' &&
  BIG_FIVE_TRAITS.every((trait) => typeof (value as Record<string, unknown>)[trait] === 'number');

/**
 * Counts one user's memory targets into `n`.
 *
 * @example const n = emptyTargetCounts(); measureTargets(index, n);
 */
export function measureTargets(index: UserIndex, n: TargetCounts): void {
  const plan = indexPlan(index.bundle.plan);
  for (const trace of index.bundle.memory?.traces ?? []) {
    if (trace.task === 'personality_inference') {
      const messages = personalityMessages(trace);
      const gold = trace.gold.value;
      if (messages === null || !isBigFive(gold)) continue;
      const window = messages.slice(-PERSONALITY_WINDOW);
      const profile = plan.personalityAt(trace.time);
      for (const trait of BIG_FIVE_TRAITS) {
        const score = gold[trait];
        if (score === 3) continue;
        n.personalityScored++;
        if (score === profile[trait]) n.personalityProfileEqual++;
        if (Math.sign(score - 3) !== Math.sign(profile[trait] - 3)) n.personalityWrongSide++;
        if (score === 1 || score === 5) {
          n.personalityExtremes++;
          // An extreme needs four distinct messages showing the trait on its side.
          const side = score > 3 ? 1 : -1;
          const showing = new Set(window.filter((text) => readMessage(text)[trait] === side));
          if (showing.size < 4) n.personalityThinExtremes++;
        }
        if (trait === 'extraversion' && score > 3) {
          n.personalityExtraverted++;
          // The same window with every "!" read as ".": what the reading owes to punctuation alone.
          const flat = inferPersonality(window.map((text) => text.replace(/!/g, '.')));
          if (flat.extraversion.score <= 3) n.personalityExclaimOnly++;
        }
      }
    } else if (trace.task === 'episodic_summary') {
      n.episodes += Array.isArray(trace.gold.value) ? trace.gold.value.length : 0;
      n.episodesMislabelled += new Set(episodeTopicProblems(index, trace).map((p) => p.split(':')[0])).size;
    } else if (trace.task === 'procedural_update') {
      n.proceduralEntries += Array.isArray(trace.gold.value) ? trace.gold.value.length : 0;
      n.proceduralFinished += proceduralGoalProblems(index, trace).length;
    } else if (trace.task === 'core_update') {
      const core = trace.gold.value as { human?: object; persona?: object } | null;
      n.coreValues += Object.keys(core?.human ?? {}).length + Object.keys(core?.persona ?? {}).length;
      n.coreTemplates += coreTemplateProblems(index, trace).length;
    }
  }
}

/** The figures of the counts (validation.json's fidelity section). */
export function targetFigures(n: TargetCounts): Record<string, FidelityFigure> {
  const profileEqual = defect(
    'non-neutral personality targets equal to the hidden profile at the turn (reported; a reader of the text is no copy of the profile)',
    n.personalityProfileEqual,
    n.personalityScored,
    100,
  );
  return {
    personality_profile_equal: { ...profileEqual, target: null, ok: null },
    personality_wrong_side: defect(
      'non-neutral personality targets on the other side of 3 from the hidden profile (the reader and the style writer share no lexicon)',
      n.personalityWrongSide,
      n.personalityScored,
      10,
    ),
    personality_thin_extremes: defect(
      'personality targets of 1 or 5 shown by fewer than four distinct messages (one stock phrase is no extreme)',
      n.personalityThinExtremes,
      n.personalityExtremes,
      0,
    ),
    personality_exclamation_extraversion: defect(
      'high-extraversion targets that read 3 once the exclamation marks are gone',
      n.personalityExclaimOnly,
      n.personalityExtraverted,
      0,
    ),
    episode_topic_errors: defect(
      "episodes whose label does not name what their turns say (or names a neighbouring episode's subject)",
      n.episodesMislabelled,
      n.episodes,
      0,
    ),
    procedural_finished_goals: defect(
      'procedural-memory entries that keep a goal the user reported achieved or given up',
      n.proceduralFinished,
      n.proceduralEntries,
      0,
    ),
    core_template_values: defect(
      'core-memory values copied from plan statement templates ("works as retired fisherman")',
      n.coreTemplates,
      n.coreValues,
      0,
    ),
  };
}
