/**
 * Audit of the personality_wrong_side figure of a finished run: for each non-neutral
 * personality-inference target on the other side of 3 from the user's hidden profile, the
 * sentences of its window that voted, the cue word and the kind of turn they sit in (plan slot
 * kind, noise, style bank). Prints a JSON summary; --list prints the cases.
 *
 *   npx --no-install tsx bench/personality-sides.ts <run-dir> [--list] [--limit N] [--reread]
 *
 * The votes shown are those of the reader as it is now; --reread also scores each window with it
 * instead of taking the run's gold (to see a reader change on an old run).
 *
 * `planted` measures the other way (offline runs only): windows whose messages hold two or more
 * style sentences of one trait side more than of the other (the writer's own banks, used here
 * only to find what was written, never to label), and how many of them the target grades on that
 * side. What is left is evidence a careful annotator reads and the reader does not.
 */
import { readFileSync } from 'node:fs';
import { parseSentences } from '../src/memory/gold/personality-parse.js';
import {
  inferPersonality,
  PERSONALITY_WINDOW,
  scoresOf,
  sentenceVotes,
} from '../src/memory/gold/personality-reading.js';
import { indexPlan } from '../src/memory/gold/plan-index.js';
import { BIG_FIVE_TRAITS } from '../src/schemas/common.js';
import { decodeUserMemoryRecord } from '../src/schemas/memory-record-codec.js';
import type { UserPlan } from '../src/schemas/plan.js';
import { bankOf } from '../test/memory/style-bank-match.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: personality-sides.ts <run-dir> [--list]');
const list = process.argv.includes('--list');
/** Score each window with the reader as it is now instead of taking the run's gold. */
const reread = process.argv.includes('--reread');
const limitAt = process.argv.indexOf('--limit');
const limit = limitAt > 0 ? Number(process.argv[limitAt + 1]) : Number.POSITIVE_INFINITY;

/** The votes of one sentence, as the reader counts them. */
const sentenceCues = (text: string) =>
  parseSentences(text.replace(/<image>/g, ' ')).flatMap((tokens) => sentenceVotes(tokens));

interface Turn {
  id: string;
  speaker: string;
  text: string;
  slots: string[];
  noise: unknown;
}
const plans = new Map<string, UserPlan>();
for (const line of readFileSync(`${dir}/plan/plan.jsonl`, 'utf8').split('\n'))
  if (line.trim()) {
    const plan = JSON.parse(line) as UserPlan;
    plans.set(plan.userId, plan);
  }
const turnInfo = new Map<string, string>();
for (const line of readFileSync(`${dir}/dialogues/dialogues.jsonl`, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const dialogue = JSON.parse(line) as { userId: string; sessions: Array<{ turns: Turn[] }> };
  const plan = plans.get(dialogue.userId);
  const kinds = new Map(plan?.slots.map((s) => [s.id, s.kind]) ?? []);
  for (const session of dialogue.sessions)
    for (const turn of session.turns) {
      if (turn.speaker !== 'user') continue;
      const kind = turn.noise !== null ? `noise:${(turn.noise as { kind?: string }).kind ?? '?'}` : '';
      turnInfo.set(turn.text, kind || turn.slots.map((s) => kinds.get(s) ?? '?').join('+') || 'filler');
    }
}

/** A style bank's trait and side ("neuroticHigh" → neuroticism, +1). */
const BANK_TRAITS: Record<string, (typeof BIG_FIVE_TRAITS)[number]> = {
  extravert: 'extraversion',
  neurotic: 'neuroticism',
  agreeable: 'agreeableness',
  open: 'openness',
  conscientious: 'conscientiousness',
};
const bankSide = (bank: string) => ({
  trait: BANK_TRAITS[bank.replace(/(High|Low)$/, '')]!,
  side: bank.endsWith('High') ? 1 : -1,
});
const planted = { windows: 0, graded: 0, byTrait: {} as Record<string, [number, number]> };

const tally: Record<string, number> = {};
const byWord: Record<string, number> = {};
let scored = 0;
let wrong = 0;
let shown = 0;
for (const line of readFileSync(`${dir}/memory/memory.jsonl`, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const record = decodeUserMemoryRecord(JSON.parse(line)) as {
    userId: string;
    traces: Array<{
      task: string;
      time: string;
      input: { turn?: Turn; context?: Turn[] };
      gold: { value: Record<string, number> };
    }>;
  };
  const plan = plans.get(record.userId);
  if (plan === undefined) continue;
  const index = indexPlan(plan);
  for (const trace of record.traces) {
    if (trace.task !== 'personality_inference' || trace.input.turn === undefined) continue;
    const messages = [...(trace.input.context ?? []).filter((t) => t.speaker === 'user'), trace.input.turn]
      .map((t) => t.text)
      .slice(-PERSONALITY_WINDOW);
    const profile = index.personalityAt(trace.time);
    const gold = reread ? scoresOf(inferPersonality(messages)) : trace.gold.value;
    const net: Record<string, number> = {};
    for (const message of messages) {
      const banks = new Set(parseSentences(message).map((s) => bankOf(s.map((w) => w.lower).join(' '))));
      const sides = new Map<string, number>();
      for (const bank of banks) if (bank !== null) sides.set(bankSide(bank).trait, bankSide(bank).side);
      for (const [trait, side] of sides) net[trait] = (net[trait] ?? 0) + side;
    }
    for (const [trait, n] of Object.entries(net)) {
      if (Math.abs(n) < 2) continue;
      const key = `${trait}${n > 0 ? '+' : '-'}`;
      const row = planted.byTrait[key] ?? [0, 0];
      planted.byTrait[key] = row;
      const on = Math.sign(((gold as Record<string, number>)[trait] ?? 3) - 3) === Math.sign(n);
      planted.windows++;
      row[1]++;
      if (on) {
        planted.graded++;
        row[0]++;
      }
    }
    for (const trait of BIG_FIVE_TRAITS) {
      const score = gold[trait]!;
      if (score === 3) continue;
      scored++;
      if (Math.sign(score - 3) === Math.sign(profile[trait] - 3)) continue;
      wrong++;
      const side = Math.sign(score - 3);
      const lines: string[] = [];
      for (const message of messages)
        for (const sentence of parseSentences(message).map((s) => s.map((w) => w.lower).join(' '))) {
          const votes = sentenceCues(sentence).filter((c) => c.trait === trait);
          if (votes.length === 0) continue;
          const bank = bankOf(sentence);
          const source = bank !== null ? `style:${bank}` : `turn:${turnInfo.get(message) ?? '?'}`;
          for (const v of votes) {
            const key = `${trait}${v.side > 0 ? '+' : '-'} ${source}`;
            if (v.side === side) {
              tally[key] = (tally[key] ?? 0) + 1;
              byWord[`${trait}${v.side > 0 ? '+' : '-'} ${v.word}`] =
                (byWord[`${trait}${v.side > 0 ? '+' : '-'} ${v.word}`] ?? 0) + 1;
            }
            lines.push(`   ${v.side > 0 ? '+' : '-'} [${v.word}] (${source}) ${sentence}`);
          }
        }
      if (list && shown++ < limit)
        console.log(
          `${record.userId} ${trace.time} ${trait}: target ${score}, profile ${profile[trait]}\n${lines.join('\n')}`,
        );
    }
  }
}
const top = (o: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40),
  );
console.log(
  JSON.stringify(
    {
      scored,
      wrong,
      rate: Math.round((1000 * wrong) / scored) / 10,
      bySource: top(tally),
      byWord: top(byWord),
      planted: {
        windows: planted.windows,
        gradedOnThatSide: planted.graded,
        share: Math.round((1000 * planted.graded) / Math.max(1, planted.windows)) / 10,
        byTraitSide: Object.fromEntries(
          Object.entries(planted.byTrait).map(([key, [on, all]]) => [key, `${on}/${all}`]),
        ),
      },
    },
    null,
    1,
  ),
);
