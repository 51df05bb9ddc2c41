/**
 * Seeded pseudo-random numbers (sfc32 seeded through cyrb128). Everything random in
 * persona-forge draws from an `Rng` derived from the run seed and a stable key, so the same seed
 * gives the same corpus byte for byte, and one user's draws never depend on another's.
 *
 * @example
 * const rng = createRng(42, 'user-0007', 'plan');
 * rng.int(1, 5); rng.pick(['a', 'b']);
 */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Index drawn with the given non-negative weights. */
  weightedIndex(weights: readonly number[]): number;
  /** A new array with the items in random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** k distinct items (k clipped to the length), order random. */
  sample<T>(items: readonly T[], k: number): T[];
  /** Standard normal draw (Box–Muller). */
  normal(mean?: number, sd?: number): number;
  /** Poisson draw with the given mean (Knuth for small means, normal approximation above 30). */
  poisson(mean: number): number;
  /** An independent child stream keyed by `parts`. */
  fork(...parts: Array<string | number>): Rng;
}

function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Creates a seeded generator; `parts` namespace the stream (user id, stage, purpose). */
export function createRng(seed: number | string, ...parts: Array<string | number>): Rng {
  const key = [String(seed), ...parts.map(String)].join('\u241f');
  let [a, b, c, d] = cyrb128(key);
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new RangeError('pick() from an empty list');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weightedIndex: (weights) => {
      let total = 0;
      for (const w of weights) total += w;
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i] as number;
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    shuffle: (items) => {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = out[i] as (typeof out)[number];
        out[i] = out[j] as (typeof out)[number];
        out[j] = tmp;
      }
      return out;
    },
    sample: (items, k) => rng.shuffle(items).slice(0, Math.max(0, Math.min(k, items.length))),
    normal: (mean = 0, sd = 1) => {
      const u = 1 - next();
      const v = next();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    poisson: (mean) => {
      if (mean <= 0) return 0;
      if (mean > 30) return Math.max(0, Math.round(rng.normal(mean, Math.sqrt(mean))));
      const limit = Math.exp(-mean);
      let k = 0;
      let p = 1;
      do {
        k++;
        p *= next();
      } while (p > limit);
      return k - 1;
    },
    fork: (...more) => createRng(key, ...more),
  };
  return rng;
}
