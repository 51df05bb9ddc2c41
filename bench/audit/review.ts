/**
 * Label review of a finished run (issue 27): draws 20 records per task (questions with their
 * gold and evidence turns, memory targets with their input) into `review.md` and
 * `review.jsonl` for a person or a model to mark accept/reject. With a judge endpoint the
 * question records are marked by the judge (it answers each question blind; the label is
 * accepted when the judge's answer is the label), and the acceptance rate per task is printed
 * with a 95% Wilson interval as one JSON object.
 *
 * Run:
 *   npx --no-install tsx bench/audit/review.ts <run-dir> --out <dir> [--per-task 20] [--seed 42]
 *       [--splits train,validation,test] [--no-memory]
 *       [--judge-base-url URL --judge-model NAME [--judge-api-key-env VAR]]
 *   npx --no-install tsx bench/audit/review.ts --score <dir>/review.jsonl   # after marking by hand
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { acceptance, judgeRecords, type ReviewRecord, sampleRecords, sheetMarkdown } from './review-sheet.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    'per-task': { type: 'string', default: '20' },
    seed: { type: 'string', default: '42' },
    splits: { type: 'string' },
    'no-memory': { type: 'boolean', default: false },
    'judge-base-url': { type: 'string' },
    'judge-model': { type: 'string' },
    'judge-api-key-env': { type: 'string' },
    score: { type: 'string' },
  },
});

if (values.score !== undefined) {
  const records = readFileSync(values.score, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ReviewRecord);
  console.log(JSON.stringify({ sheet: values.score, tasks: acceptance(records) }));
} else {
  const runDir = positionals[0];
  if (runDir === undefined || values.out === undefined)
    throw new Error(
      'usage: tsx bench/audit/review.ts <run-dir> --out <dir> [--judge-base-url URL --judge-model NAME]',
    );
  const records = sampleRecords(runDir, {
    perTask: Number(values['per-task']),
    seed: Number(values.seed),
    ...(values.splits === undefined ? {} : { splits: values.splits.split(',') }),
    memory: !values['no-memory'],
  });
  const judged = values['judge-base-url'] !== undefined;
  if (judged) {
    if (values['judge-model'] === undefined) throw new Error('--judge-base-url needs --judge-model');
    const keyEnv = values['judge-api-key-env'];
    const apiKey = keyEnv === undefined ? undefined : process.env[keyEnv];
    if (keyEnv !== undefined && apiKey === undefined)
      throw new Error(`--judge-api-key-env: ${keyEnv} is not set`);
    await judgeRecords(records, {
      baseUrl: values['judge-base-url'] as string,
      model: values['judge-model'],
      ...(apiKey === undefined ? {} : { apiKey }),
    });
  }
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, 'review.md'), sheetMarkdown(records, runDir));
  writeFileSync(
    join(values.out, 'review.jsonl'),
    records.map((record) => `${JSON.stringify(record)}\n`).join(''),
  );
  const tasks = new Set(records.map((record) => record.task));
  console.log(
    JSON.stringify({
      run: runDir,
      records: records.length,
      tasks: tasks.size,
      sheet: join(values.out, 'review.md'),
      ...(judged ? { acceptance: acceptance(records) } : {}),
    }),
  );
}
