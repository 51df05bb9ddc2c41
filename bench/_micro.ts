import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ExportConfig } from '../src/schemas/export-config.js';
import { readExportLines } from '../src/export/read-run.js';
import { renderKeptRows } from '../src/export/export-user.js';
import { decodeUserMemoryFields } from '../src/schemas/memory-record-codec.js';
import { traceCandidateId, sftCandidateList, rlCandidateList } from '../src/export/samples.js';
const run = '/tmp/e2e-base';
const cfg = ExportConfig.parse(parse(readFileSync('pipelines/personavlm.yaml', 'utf8')).export);
const t: Record<string, number> = {};
const time = <T>(k: string, f: () => T): T => { const s = performance.now(); const r = f(); t[k] = (t[k] ?? 0) + performance.now() - s; return r; };
const keep = new Set<string>();
for (const f of ['sft/train', 'sft/test', 'rl/train', 'rl/test'])
  for (const line of readFileSync(`${run}/export/${f}.jsonl`, 'utf8').split('\n')) if (line) keep.add(JSON.parse(line).id);
const users = [];
for await (const l of readExportLines(run)) users.push(l);
let rows = 0, chars = 0;
for (const l of users) {
  const plan = time('parsePlan', () => JSON.parse(l.plan));
  const rec = time('parseMemLine', () => JSON.parse(l.memory!));
  const memory = time('decode', () => decodeUserMemoryFields(rec, ['snapshots', 'traces', 'trajectories'], { wantTrace: (id, task) => keep.has(traceCandidateId(l.userId, { id, task })) }));
  const bundle = { plan, memory } as any;
  const built = time('build', () => {
    const out = [];
    for (const c of sftCandidateList(bundle, cfg)) if (keep.has(c.id)) out.push(c.build());
    for (const c of rlCandidateList(bundle, cfg)) if (keep.has(c.id)) out.push(c.build());
    return out;
  });
  const json = time('stringify', () => built.map((r) => JSON.stringify(r)));
  rows += json.length; for (const j of json) chars += j.length;
  time('utf8', () => json.map((j) => Buffer.from(j)));
}
for (const l of users.slice(0, 0)) time('renderKeptRows(half)', () => renderKeptRows(l, cfg, 42, keep));
console.log(JSON.stringify({ rows, mchars: Math.round(chars / 1e6), ...Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])) }));
