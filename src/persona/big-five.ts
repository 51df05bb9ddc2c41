import { BIG_FIVE_TRAITS, type BigFive, type BigFiveTrait } from '../schemas/common.js';
import type { PersonasConfig } from '../schemas/personas-config.js';
import type { Rng } from '../util/rng.js';

/** Weights of the scores 1..5 used for `trait`: its override, else the shared weights. */
export function traitWeights(config: PersonasConfig['bigFive'], trait: BigFiveTrait): readonly number[] {
  return config.traits[trait] ?? config.weights;
}

/**
 * Draws integer Big Five scores 1–5 (PersonaVLM enriches base personas with random Big Five
 * scores, SPEC.md §1) from the configured per-trait distribution.
 *
 * @example drawBigFive(createRng(1, 'u0'), PersonasConfig.parse({}).bigFive) // { openness: 4, … }
 */
export function drawBigFive(rng: Rng, config: PersonasConfig['bigFive']): BigFive {
  const scores = {} as Record<BigFiveTrait, number>;
  for (const trait of BIG_FIVE_TRAITS) scores[trait] = rng.weightedIndex(traitWeights(config, trait)) + 1;
  return scores;
}

const WORDS: Record<BigFiveTrait, { low: string; high: string }> = {
  openness: { low: 'prefers the familiar and practical', high: 'curious and drawn to new ideas' },
  conscientiousness: { low: 'spontaneous and easy-going about plans', high: 'organised and dependable' },
  extraversion: { low: 'reserved and recharges alone', high: 'outgoing and energised by people' },
  agreeableness: { low: 'blunt and sceptical', high: 'warm and cooperative' },
  neuroticism: { low: 'calm under pressure', high: 'prone to worry and stress' },
};

/** Plain-language reading of the scores: traits at 3 are left out as unremarkable. */
export function describeBigFive(scores: BigFive): string[] {
  const out: string[] = [];
  for (const trait of BIG_FIVE_TRAITS) {
    const score = scores[trait];
    if (score >= 4) out.push(WORDS[trait].high);
    else if (score <= 2) out.push(WORDS[trait].low);
  }
  return out;
}

/**
 * The interaction style a user with these scores asks for (PersonaVLM's response prompt adapts
 * tone to the traits: reassuring for high neuroticism, practical for low openness).
 */
export function interactionStyleFor(scores: BigFive): string {
  const parts: string[] = [];
  parts.push(
    scores.extraversion >= 4
      ? 'lively and chatty'
      : scores.extraversion <= 2
        ? 'brief and calm'
        : 'friendly and concise',
  );
  if (scores.neuroticism >= 4) parts.push('reassuring when things go wrong');
  if (scores.openness >= 4) parts.push('happy to suggest new ideas');
  else if (scores.openness <= 2) parts.push('practical, sticking to proven options');
  if (scores.conscientiousness >= 4) parts.push('structured, with clear next steps');
  if (scores.agreeableness <= 2) parts.push('direct, without sugar-coating');
  return parts.join('; ');
}
