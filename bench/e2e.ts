/**
 * End to end at PersonaVLM scale (`pipelines/personavlm.yaml`, 700 users, offline): the shipped
 * binary in a child process; per stage its wall time, CPU time and peak RSS (sampled from
 * /proc/<pid>, Linux), then bytes per user of every output file. Issue goals: ≤ 60 s wall,
 * peak RSS ≤ 1 GB, memory output ≤ 150 MB, export ≥ 5,000 samples/s end to end.
 * Run: npx --no-install tsx bench/e2e.ts [pipeline.yaml] [--keep <dir>]
 * (`--keep`: run into <dir> and leave it there, e.g. to compare two versions' files by sha256).
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const repo = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt === -1 ? null : resolve(args[keepAt + 1] ?? '');
if (keepAt !== -1) args.splice(keepAt, 2);
const pipeline = args[0] ?? join(repo, 'pipelines/personavlm.yaml');
const out = keep ?? (await mkdtemp(join(tmpdir(), 'pf-bench-e2e-')));
const ticks = 100; // USER_HZ on Linux

const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / ticks;
};
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

try {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(repo, 'bin/persona-forge.js'), 'run', pipeline, '--out', out, '--json'],
    {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const pid = child.pid as number;
  const stages: Array<Record<string, unknown>> = [];
  let stageStart = performance.now();
  let cpuStart = 0;
  let peak = 0;
  let overallPeak = 0;
  const sampler = setInterval(() => {
    try {
      const rss = rssMb(pid);
      peak = Math.max(peak, rss);
      overallPeak = Math.max(overallPeak, rss);
    } catch {
      // the process has ended
    }
  }, 50);
  let users = 0;
  for await (const line of createInterface({ input: child.stdout })) {
    const event = JSON.parse(line) as { type: string; stage?: string; in?: number; out?: number };
    if (event.type === 'stage-start') {
      stageStart = performance.now();
      cpuStart = cpuSeconds(pid);
      peak = rssMb(pid);
    }
    if (event.type === 'stage-end') {
      const cpu = cpuSeconds(pid) - cpuStart;
      if (event.stage === 'plan') users = event.out ?? 0;
      stages.push({
        stage: event.stage,
        wallSeconds: Math.round((performance.now() - stageStart) / 10) / 100,
        cpuSeconds: Math.round(cpu * 100) / 100,
        peakRssMb: Math.round(peak),
        in: event.in,
        out: event.out,
      });
    }
  }
  clearInterval(sampler);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const wall = (performance.now() - started) / 1000;
  // Per output file; per-user files (Persona-MME's samples/<user>/user_data.json) as one `*` entry.
  const sizes: Record<string, { bytes: number; files: number }> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.state' && entry.name !== 'images') await walk(full);
        continue;
      }
      const key = relative(out, full).replace(/\/(train|test)-\d+\//, '/*/');
      const bucket = sizes[key] ?? { bytes: 0, files: 0 };
      bucket.bytes += (await stat(full)).size;
      bucket.files++;
      sizes[key] = bucket;
    }
  };
  await walk(out);
  const files = Object.fromEntries(
    Object.entries(sizes).map(([path, { bytes, files: count }]) => [
      path,
      { bytes, bytesPerUser: Math.round(bytes / Math.max(users, 1)), ...(count > 1 ? { files: count } : {}) },
    ]),
  );
  const exportStage = stages.find((s) => s.stage === 'export');
  const memoryBytes = statSync(join(out, 'memory/memory.jsonl')).size;
  console.log(
    JSON.stringify({
      bench: 'e2e',
      pipeline: relative(repo, pipeline),
      exitCode: code,
      users,
      wallSeconds: Math.round(wall * 10) / 10,
      peakRssMb: Math.round(overallPeak),
      stages,
      exportSamplesPerSecond:
        exportStage === undefined
          ? null
          : Math.round((exportStage.out as number) / (exportStage.wallSeconds as number)),
      memoryMb: Math.round(memoryBytes / 1e6),
      goals: { wallSeconds: 60, peakRssMb: 1024, memoryMb: 150, exportSamplesPerSecond: 5000 },
      files,
    }),
  );
} finally {
  if (keep === null) await rm(out, { recursive: true, force: true });
}
