import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PersonaForgeError } from '../errors/index.js';
import { loadModelTokenizer } from './model-tokenizer.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pf-tok-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadModelTokenizer', () => {
  it('reads a local model folder: a hand-made two-merge BPE counts its own merges', async () => {
    const model = path.join(dir, 'tiny-model');
    mkdirSync(model);
    writeFileSync(
      path.join(model, 'tokenizer.json'),
      JSON.stringify({
        version: '1.0',
        added_tokens: [],
        normalizer: null,
        pre_tokenizer: { type: 'Whitespace' },
        post_processor: null,
        decoder: null,
        model: {
          type: 'BPE',
          vocab: { a: 0, b: 1, c: 2, ab: 3, abc: 4 },
          merges: ['a b', 'ab c'],
          unk_token: null,
        },
      }),
    );
    const tok = await loadModelTokenizer(model);
    expect(tok.name).toBe(path.join(model, 'tokenizer.json'));
    expect(tok.count('abc ab a c')).toBe(4); // abc | ab | a | c
    expect(tok.count('cba')).toBe(3); // no merge applies
    expect(tok.count('')).toBe(0);
  }, 60_000);

  it('Qwen vocabularies: digits one token each, Qwen3 knows <think>, the Qwen2.5-VL vocabulary does not', async () => {
    const qwen3 = await loadModelTokenizer('qwen3');
    const qwen2 = await loadModelTokenizer('qwen2_5_vl');
    expect(qwen3.name).toContain('qwen3');
    expect(qwen2.name).toContain('qwen2');
    // Qwen's pre-tokenizer isolates every digit (\p{N}): 12 digits + 2 dashes + space + colon.
    expect(qwen3.count('2024-02-12 12:00')).toBe(16);
    expect(qwen3.count('<think>')).toBe(1);
    expect(qwen2.count('<think>')).toBeGreaterThan(1);
    // Added tokens both share count as one token; a chat turn is 5 here.
    expect(qwen2.count('<|im_start|>user\nhi<|im_end|>')).toBe(5);
    expect(qwen2.count('Hello world')).toBe(2);
  }, 60_000);

  it('names what it accepts for an unknown name, a missing folder and a folder without tokenizer.json', async () => {
    await expect(loadModelTokenizer('llama9')).rejects.toThrow(/unknown tokenizer 'llama9'/);
    await expect(loadModelTokenizer('/nope/model')).rejects.toThrow(/no such model folder/);
    await expect(loadModelTokenizer(dir)).rejects.toThrow(/no tokenizer\.json in the model folder/);
    const error = await loadModelTokenizer('').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersonaForgeError);
    expect((error as PersonaForgeError).hint).toMatch(/qwen3/);
  });
});
