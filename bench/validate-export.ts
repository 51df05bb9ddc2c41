/**
 * Benchmark for validation and export. Prints one JSON object:
 * - `validate.turnsPerSecond`: rule checks + offline judges + dedup over in-memory users (target ≥ 50,000);
 * - `parquet.samplesPerSecond`: SFT + RL rows encoded to parquet and written (target ≥ 20,000);
 * - `exportDataset`: the whole export of a run directory (two passes, jsonl + parquet + eval sets + card);
 * - `peakRssMb`: the process's peak resident set size.
 * Run: `npx --no-install tsx bench/validate-export.ts [users] [sessions] [roundsPerSession]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RL_COLUMNS, SFT_COLUMNS } from '../src/export/export-dataset.js';
import { exportDataset, rlCandidates, sftCandidates, writeParquetFile } from '../src/export/index.js';
import { ExportConfig } from '../src/schemas/export-config.js';
import { ValidateConfig } from '../src/schemas/validate-config.js';
import { validateCorpus } from '../src/validate/index.js';
import { writeRun } from '../test/export/write-run.js';
import { buildFixtureCorpus } from '../test/validate/fixture.js';

/** Process CPU milliseconds (user + system): the machine is shared, so rates are given per CPU second too. */
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const users = Number(process.argv[2] ?? 700);
const sessions = Number(process.argv[3] ?? 6);
const rounds = Number(process.argv[4] ?? 10);
const corpus = buildFixtureCorpus(users, { sessions, roundsPerSession: rounds });
const turns = corpus.reduce(
  (sum, user) => sum + user.dialogue.sessions.reduce((s, session) => s + session.turns.length, 0),
  0,
);

let started = performance.now();
let cpuStarted = cpu();
const report = await validateCorpus(corpus, { config: ValidateConfig.parse({}) });
const validateSeconds = (performance.now() - started) / 1000;
const validateCpu = (cpu() - cpuStarted) / 1000;

const exportConfig = ExportConfig.parse({
  sft: { mix: { mode: 'all' } },
  rl: { mix: { mode: 'all', weights: { open: 1, mc: 1, binary: 1, tree_ops: 1 } } },
});
const sft = corpus.flatMap((user) => [...sftCandidates(user, exportConfig)]);
const rl = corpus.flatMap((user) => [...rlCandidates(user, exportConfig)]);
const dir = await mkdtemp(join(tmpdir(), 'pf-bench-'));
started = performance.now();
cpuStarted = cpu();
const sftBytes = await writeParquetFile(
  join(dir, 'sft.parquet'),
  sft as unknown as Array<Record<string, unknown>>,
  SFT_COLUMNS,
);
const rlBytes = await writeParquetFile(
  join(dir, 'rl.parquet'),
  rl as unknown as Array<Record<string, unknown>>,
  RL_COLUMNS,
);
const parquetSeconds = (performance.now() - started) / 1000;
const parquetCpu = (cpu() - cpuStarted) / 1000;

const runDir = join(dir, 'run');
await writeRun(runDir, corpus);
started = performance.now();
cpuStarted = cpu();
const summary = await exportDataset(runDir, {
  config: ExportConfig.parse({ eval: { splits: ['train', 'test'] } }),
  seed: 42,
});
const exportSeconds = (performance.now() - started) / 1000;
const exportCpu = (cpu() - cpuStarted) / 1000;
const exported = [summary.sft, summary.rl]
  .flatMap((kind) => [kind.train, kind.test])
  .reduce((sum, counts) => sum + Object.values(counts).reduce((a, b) => a + b, 0), 0);
await rm(dir, { recursive: true, force: true });

console.log(
  JSON.stringify(
    {
      users,
      turns,
      loadAverage: os.loadavg().map(round),
      validate: {
        seconds: round(validateSeconds),
        turnsPerSecond: Math.round(turns / validateSeconds),
        turnsPerCpuSecond: Math.round(turns / validateCpu),
        ruleFailures: report.totals.ruleFailures,
        judgeMode: report.judgeMode,
      },
      parquet: {
        rows: sft.length + rl.length,
        seconds: round(parquetSeconds),
        samplesPerSecond: Math.round((sft.length + rl.length) / parquetSeconds),
        samplesPerCpuSecond: Math.round((sft.length + rl.length) / parquetCpu),
        bytes: sftBytes + rlBytes,
      },
      exportDataset: {
        rows: exported,
        seconds: round(exportSeconds),
        samplesPerSecond: Math.round(exported / exportSeconds),
        samplesPerCpuSecond: Math.round(exported / exportCpu),
      },
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    },
    null,
    2,
  ),
);

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
