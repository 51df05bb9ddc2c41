import { readFileSync } from 'node:fs';
import { parsedShape, turnEdges, lowercaseNames } from './src/validate/text-shape.ts';
const turnShape = (t: string) => ({ ...parsedShape(t), ...turnEdges(t), lowercaseNames: lowercaseNames(t) });
const file = process.argv[2]!;
const lines = readFileSync(file, 'utf8').trim().split('\n');
const skel = new Map<string, number>(), open = new Map<string, number>(), end = new Map<string, number>();
let users = 0, frag = 0, lower = 0; const fragEx: string[] = []; const lowEx: string[] = [];
const max = Number(process.argv[3] ?? 1e9);
for (const line of lines.slice(0, max)) {
  const d = JSON.parse(line);
  for (const s of d.sessions) for (const t of s.turns) {
    if (t.speaker !== (process.env.SPK ?? 'user')) continue;
    users++;
    const sh = turnShape(t.text);
    for (const k of sh.skeletons) skel.set(k, (skel.get(k) ?? 0) + 1);
    if (sh.opening) open.set(sh.opening, (open.get(sh.opening) ?? 0) + 1);
    if (sh.ending) end.set(sh.ending, (end.get(sh.ending) ?? 0) + 1);
    if (sh.fragments.length) { frag++; if (fragEx.length < 400) fragEx.push(sh.fragments.join(' | ') + '  <<' + t.text); }
    if (sh.lowercaseNames.length) { lower++; if (lowEx.length < 5) lowEx.push(t.text); }
  }
}
const top = (m: Map<string, number>, n = 12) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(100 * v / users).toFixed(1)}% ${k}`);
const stock = (m: Map<string, number>) => { let s = 0; for (const v of m.values()) if (v >= users * 0.01) s += v; return (100 * s / users).toFixed(1); };
console.log({ users, frag: (100 * frag / users).toFixed(1), lower: (100 * lower / users).toFixed(1), stockOpen: stock(open), stockEnd: stock(end) });
console.log('SKEL', top(skel)); console.log('OPEN', top(open)); console.log('END', top(end));
const byKind = new Map<string, number>(); for (const f of fragEx) { const k = f.split(':')[0]!; byKind.set(k, (byKind.get(k) ?? 0) + 1); }
console.log(byKind);

import { readSentences } from './src/util/nlp.ts';
import { sentenceSkeleton } from './src/validate/text-shape.ts';
{
const want = new Set([...skel].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k]) => k));
const ex = new Map<string, string[]>();
for (const line of lines.slice(0, 40)) { const d = JSON.parse(line); for (const s of d.sessions) for (const t of s.turns) { if (t.speaker !== 'user') continue; for (const se of readSentences(t.text)) { const k = sentenceSkeleton(se); if (k && want.has(k)) { const l = ex.get(k) ?? []; if (l.length < 4) l.push(se.text); ex.set(k, l); } } } }
console.log(ex);
}
