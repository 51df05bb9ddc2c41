import { readFileSync } from 'node:fs';
import { indexUser } from './src/validate/types.ts';
import { replyProblems } from './src/validate/reply-agreement.ts';
import { parsedShape } from './src/validate/text-shape.ts';
const dir = process.argv[2]!;
const plans = readFileSync(`${dir}/plan/plan.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const dialogues = readFileSync(`${dir}/dialogues/dialogues.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
let shown = 0;
for (const d of dialogues.slice(0, Number(process.argv[3] ?? 100))) {
  const plan = plans.find((p) => p.userId === d.userId);
  const index = indexUser({ plan, dialogue: d, memory: null });
  const turns = new Map(d.sessions.flatMap((s: any) => s.turns.map((t: any, i: number) => [t.id, [t, s.turns[i - 1]]])));
  for (const [id, why] of replyProblems(index).problems) { if (shown++ < 14) { const [t, u] = turns.get(id) as any; console.log('REPLY', why, '\n  U:', u.text, '\n  A:', t.text); } }
  for (const s of d.sessions) for (const t of s.turns) { if (t.round % 4) continue; const f = parsedShape(t.text).fragments; if (f.length && process.env.FRAG && shown++ < 40) console.log('FRAG', f, '\n  ', t.text); }
}
