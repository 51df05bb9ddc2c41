/**
 * The free-writing dialect shares nothing with what reads it or with the offline writer: no
 * reader cue (stance words, change words, condition concepts) in its phrases, and no three-word
 * run of the offline realizer's templates and banks.
 */
import { describe, expect, it } from 'vitest';
import { conditionGroups } from '../../../synth/meaning/conditions.js';
import { CUES } from '../../../synth/meaning/lexicon.js';
import { parse } from '../../../synth/meaning/nlp.js';
import { readClause } from '../../../synth/meaning/stance.js';
import { BANKS } from '../../../synth/offline/banks.js';
import { NOISE_TEMPLATES, SLOT_TEMPLATES } from '../../../synth/offline/phrases.js';
import { FREE_BANKS, FREE_CONDITIONS, freeWrite } from './free-writing.js';

const phrases = [...Object.values(FREE_BANKS).flat(), ...Object.values(FREE_CONDITIONS)]
  .map((phrase) => phrase.replace('{x}', ' ').trim())
  .filter((phrase) => phrase !== '');
const words = (text: string) => text.toLowerCase().match(/[a-z']+/g) ?? [];
const runs = (text: string, n: number) => {
  const w = words(text.replace(/\{[^}]*\}|\[[^\]]*\]/g, ' | '));
  return w.slice(0, Math.max(0, w.length - n + 1)).map((_, i) => w.slice(i, i + n).join(' '));
};

describe('the free-writing dialect', () => {
  it('uses no word the meaning reader reads as a cue', () => {
    const found: string[] = [];
    for (const phrase of phrases) {
      const lemmas = parse(phrase)
        .flat()
        .map((t) => t.lemma);
      const lowers = words(phrase);
      for (const cue of CUES) {
        const at = lemmas.findIndex((_, i) =>
          cue.words.every((w, j) => lemmas[i + j] === w || lowers[i + j] === w),
        );
        if (at >= 0) found.push(`${phrase}: "${cue.words.join(' ')}"`);
      }
      for (const sentence of parse(phrase)) {
        const stance = readClause(sentence, new Set());
        if (stance.score !== 0 || stance.ended || stance.still || stance.past)
          found.push(`${phrase}: reads as ${JSON.stringify(stance)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('says conditions without the words the reader knows them by', () => {
    for (const [condition, paraphrase] of Object.entries(FREE_CONDITIONS)) {
      const lemmas = new Set(
        parse(paraphrase)
          .flat()
          .flatMap((t) => [t.lemma, t.lower]),
      );
      const shared = conditionGroups(condition)
        .flat()
        .filter((phrase) => phrase.every((word) => lemmas.has(word)));
      expect(shared, `${condition} → ${paraphrase}`).toEqual([]);
    }
  });

  it('shares no three-word run with the offline realizer', () => {
    const offline = new Set(
      [...Object.values(SLOT_TEMPLATES), ...Object.values(NOISE_TEMPLATES), ...Object.values(BANKS)]
        .flat()
        .flatMap((text) => runs(text, 3)),
    );
    const shared = phrases.flatMap((phrase) => runs(phrase, 3).filter((run) => offline.has(run)));
    expect(shared).toEqual([]);
  });

  it('writes every kind of preference fact with its keywords, and flips one stance when told to', () => {
    const like = freeWrite('Mia likes jasmine green tea on weekends', 'Mia', ['jasmine'], 'k', false)!;
    expect(like.text).toContain('jasmine');
    expect(like.text).toContain(FREE_CONDITIONS['on weekends']!);
    expect(like.planted).toBeNull();
    const drift = freeWrite(
      'Mia used to like black americano but now likes jasmine green tea (a friend introduced me to it)',
      'Mia',
      ['jasmine'],
      'k',
      true,
    )!;
    expect(drift.planted === 'black americano' || drift.planted === 'jasmine green tea').toBe(true);
    expect(freeWrite('Mia lives in Lyon', 'Mia', ['Lyon'], 'k', false)).toBeNull();
  });
});
