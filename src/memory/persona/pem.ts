import { BIG_FIVE_TRAITS, type BigFive } from '../../schemas/common.js';
import type { PersonalityState } from '../../schemas/memory.js';
import { PemConfig } from '../../schemas/memory-config.js';

/**
 * PEM smoothing factor (PersonaVLM §3.2, SPEC.md §1):
 * `λ_m = 0.7 − 0.2·cos(π·min(m, 50)/50)` — 0.5 at m = 0 (adapt fast), 0.9 from m = 50 (stable).
 *
 * @example
 * pemLambda(0); // 0.5
 */
export function pemLambda(m: number, config: Partial<PemConfig> = {}): number {
  const { lambdaBase, lambdaAmplitude, horizon } = PemConfig.parse(config);
  return lambdaBase - lambdaAmplitude * Math.cos((Math.PI * Math.min(m, horizon)) / horizon);
}

export interface PemUpdate {
  state: PersonalityState;
  /** True when the inferred scores were all neutral and P was left unchanged. */
  skipped: boolean;
  lambda: number;
}

/**
 * One PEM step at user turn m = `state.turns`: skip when every inferred score is the neutral 3,
 * else `p ← λ_m·p + (1 − λ_m)·p'_m`. The turn counter advances either way (λ follows turns).
 *
 * @example
 * updatePersonality({ p: five(3), turns: 0 }, five(5)).state.p.openness; // 4
 */
export function updatePersonality(
  state: PersonalityState,
  inferred: BigFive,
  config: Partial<PemConfig> = {},
): PemUpdate {
  const parsed = PemConfig.parse(config);
  const lambda = pemLambda(state.turns, parsed);
  const skipped = BIG_FIVE_TRAITS.every((trait) => inferred[trait] === parsed.neutral);
  if (skipped) return { state: { p: { ...state.p }, turns: state.turns + 1 }, skipped, lambda };
  const p = { ...state.p };
  for (const trait of BIG_FIVE_TRAITS) {
    const value = lambda * state.p[trait] + (1 - lambda) * inferred[trait];
    // Round away float noise so snapshots are byte-stable across platforms.
    p[trait] = Math.min(5, Math.max(1, Math.round(value * 1e6) / 1e6));
  }
  return { state: { p, turns: state.turns + 1 }, skipped, lambda };
}

const LEVELS = ['very low', 'low', 'moderate', 'high', 'very high'] as const;

/**
 * P rendered as the short text a response prompt shows.
 *
 * @example
 * describePersonality({ openness: 4.6, … }); // 'openness very high (4.6), …'
 */
export function describePersonality(p: BigFive): string {
  return BIG_FIVE_TRAITS.map((trait) => {
    const level = LEVELS[Math.min(4, Math.max(0, Math.round(p[trait]) - 1))] as string;
    return `${trait} ${level} (${p[trait].toFixed(1)})`;
  }).join(', ');
}
