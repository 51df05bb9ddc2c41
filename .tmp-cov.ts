import { readFileSync } from 'node:fs';
import { locomoAsk } from './src/synth/locomo-questions.js';
for (const f of process.argv.slice(2)) {
  const plans = readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const c: Record<string, [number, number]> = {};
  const miss = new Set<string>();
  for (const p of plans) for (const qa of p.qa) {
    if (qa.unanswerable || qa.openable === false) continue;
    const k = `${qa.family}/${qa.task}`; c[k] ??= [0, 0];
    const a = locomoAsk(qa); if (a) c[k][0]++; else { c[k][1]++; miss.add(qa.question.replace(/^[^.]*\. /, '')); }
  }
  console.log(f, c); console.log([...miss].slice(0, 12));
}
