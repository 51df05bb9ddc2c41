import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelLabel, personalityModel } from '../../src/memory/gold/personality-classifier.js';
import { messageFeatures } from '../../src/memory/gold/personality-features.js';
import { readTrainingFile, trainPersonalityModel } from '../../src/memory/gold/personality-train-model.js';
import { splitSentences } from '../../src/synth/grammar.js';
import { PERSONALITY_SETS } from './personality-sets.js';
import { bankOf, bare } from './style-bank-match.js';

/**
 * The learned personality reader (src/memory/gold/personality-classifier.ts): its features mark who
 * a clause is about, its shipped weights are what its shipped messages train, and its training
 * input is checked line by line. Its recall and precision on text written apart from it are in
 * ./personality-recall.test.ts with the rule readers'.
 */
const TRAIN = join(import.meta.dirname, '../../scripts/personality');
const scratch = mkdtempSync(join(tmpdir(), 'pf-personality-model-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the learned personality reader', () => {
  it('marks each word with who its clause is about, and reads nothing in a question', () => {
    expect(messageFeatures('I skipped the party.')).toContain('I:skip');
    const sister = messageFeatures('My sister skipped the party.');
    expect(sister).toContain('M:skip');
    expect(sister).not.toContain('I:skip');
    expect(messageFeatures("I didn't mind the delay.")).toContain('I!:mind');
    expect(messageFeatures('I want to get organised.')).toContain('Iw:organize');
    expect(messageFeatures('How do I stop panicking before exams?')).toEqual([]);
  });

  it('reads a taste, a correction or a motto as no trait, and a habit of worry as one', () => {
    for (const text of [
      'I have always loved dumplings.',
      'Sitcoms never get old for me.',
      'Lately I cannot stand cilantro.',
      'Island hopping is my favourite kind of holiday.',
      'Correction: I said Friday for the pickup, I meant Tuesday.',
      'Keep calm and carry on.',
    ])
      expect(modelLabel(text), text).toBe('none');
    expect(modelLabel('I lay awake half the night worrying about the meeting.')).toBe('neuroticism+');
  });

  it('reads nothing in a message with no statement', () => {
    expect(modelLabel('Could you convert two cups of flour to grams?')).toBe('none');
    expect(modelLabel('Thanks!')).toBe('none');
  });

  it('ships the weights and threshold its training messages give', () => {
    const trained = trainPersonalityModel(TRAIN);
    const shipped = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../src/memory/gold/personality-model.json'), 'utf8'),
    );
    expect(shipped).toEqual(JSON.parse(JSON.stringify(trained)));
    expect(personalityModel().threshold).toBe(trained.threshold);
  }, 1_200_000);

  it('trains on no sentence of a test set and none a style bank wrote', () => {
    // Sentences long enough to be somebody's words, not "Thanks!" or "It rained."
    const tested = new Set(
      PERSONALITY_SETS.flatMap((set) => [...Object.values(set.shows).flat(), ...set.none])
        .flatMap(splitSentences)
        .map(bare)
        .filter((sentence) => sentence.length > 25),
    );
    const files = readdirSync(TRAIN).filter((name) => /^train-.*\.jsonl$/.test(name));
    expect(files.length).toBeGreaterThanOrEqual(10);
    const shared = files.flatMap((name) =>
      readTrainingFile(join(TRAIN, name)).flatMap((message) =>
        splitSentences(message.text)
          .filter((sentence) => tested.has(bare(sentence)) || bankOf(sentence) !== null)
          .map((sentence) => `${name}: ${sentence}`),
      ),
    );
    expect(shared).toEqual([]);
  });

  it('names the file and line of a bad training message', () => {
    const file = join(scratch, 'train-bad.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ text: 'I love parties.', label: 'extraversion+' })}\n{"text":"x","label":"happy"}\n`,
    );
    expect(() => readTrainingFile(file)).toThrow(`${file} (label): line 2`);
    writeFileSync(file, 'not json\n');
    expect(() => readTrainingFile(file)).toThrow(`${file}: line 1 is not JSON`);
  });
});
