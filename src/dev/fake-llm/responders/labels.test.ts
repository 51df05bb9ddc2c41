/**
 * The fake's trait phrases share nothing with the offline personality cue reader, so only a
 * model's reading (personality-evidence/1) can find what they show; its decoys are what a cue
 * list misreads as the user's trait.
 */
import { describe, expect, it } from 'vitest';
import { readPersonalityEvidence } from '../../../../test/support/cue-list-personality.js';
import { FREE_TRAITS, TRAIT_DECOYS } from './free-writing.js';

describe('the fake model’s personality phrasing', () => {
  it('shows traits in words the offline cue reader does not read', () => {
    for (const phrase of Object.values(FREE_TRAITS).flat()) {
      const read = Object.entries(readPersonalityEvidence(phrase)).filter(([, e]) => e.reading !== 0);
      expect(read, phrase).toEqual([]);
    }
  });

  it('plants decoys the cue reader takes for the user’s own trait', () => {
    for (const [trait, phrases] of Object.entries(TRAIT_DECOYS)) {
      for (const phrase of phrases) {
        const evidence = readPersonalityEvidence(phrase) as Record<string, { reading: unknown }>;
        expect(evidence[trait]?.reading, phrase).toBe(1);
      }
    }
  });
});
