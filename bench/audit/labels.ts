/**
 * Audit of a finished run directory for issue 13 ("the corpus says what its labels say"). Prints
 * one JSON object:
 * - `corrections`: user turns of `correction` noise, how many name a preference the plan holds at
 *   that time (a retraction of a real preference), how many name any planned fact, and how many
 *   correct a misstatement planted earlier in their session;
 * - `personamem`: the exported PersonaMem questions' context length (the CSV column, and the
 *   context up to `end_index_in_shared_context` counted with gpt-tokenizer as `src/eval` does),
 *   beside the real 32k file's mean when `/work/shared/data` is present;
 * - `quarantine`: quarantine records by unit (user, session, turn), users kept whole or partly,
 *   dropped questions, and exported questions whose evidence turn is not in the exported context.
 * Run: `npx --no-install tsx bench/audit/labels.ts <run-dir> [real questions_32k.csv]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { parseCsv } from '../../src/eval/load.js';
import { slotTopic } from '../../src/qa/index.js';
import type { UserDialogue } from '../../src/schemas/dialogue.js';
import type { UserPlan } from '../../src/schemas/plan.js';

const runDir = process.argv[2];
if (runDir === undefined) throw new Error('usage: tsx bench/audit/labels.ts <run-dir> [questions_32k.csv]');
const realFile = process.argv[3] ?? '/work/shared/data/personamem/questions_32k.csv';

const jsonl = <T>(file: string): T[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as T)
    : [];

const plans = new Map(jsonl<UserPlan>(join(runDir, 'plan/plan.jsonl')).map((p) => [p.userId, p]));
const dialogues = jsonl<UserDialogue>(join(runDir, 'dialogues/dialogues.jsonl'));

const mentions = (text: string, phrase: string) =>
  new RegExp(`\\b${phrase.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text.toLowerCase());

// 1. Corrections.
let corrections = 0;
let retractHeld = 0;
let retractStated = 0;
let namePlanned = 0;
let correctsPlanted = 0;
const examples: string[] = [];
for (const dialogue of dialogues) {
  const plan = plans.get(dialogue.userId);
  if (plan === undefined) continue;
  for (const session of dialogue.sessions) {
    const userTurns = session.turns.filter((t) => t.speaker === 'user');
    userTurns.forEach((turn, i) => {
      if (turn.noise !== 'correction') return;
      corrections++;
      const time = Date.parse(turn.time);
      const held = plan.preferences.filter(
        (p) => Date.parse(p.validFrom) <= time && (p.validUntil === null || Date.parse(p.validUntil) > time),
      );
      const namesHeld = held.some(
        (p) =>
          mentions(turn.text, slotTopic(p.slot)) ||
          mentions(turn.text, p.item) ||
          p.keywords.some((k) => mentions(turn.text, k)),
      );
      // Narrower: the held preference was already stated in the dialogue before this turn.
      const stated = held.filter((p) =>
        plan.slots.some((slot) => slot.refId === p.id && Date.parse(slot.time) < time),
      );
      if (
        stated.some(
          (p) => mentions(turn.text, slotTopic(p.slot)) || p.keywords.some((k) => mentions(turn.text, k)),
        )
      )
        retractStated++;
      if (namesHeld) {
        retractHeld++;
        if (examples.length < 5) examples.push(`${turn.id}: ${turn.text}`);
      }
      const planned = [
        ...plan.preferences.flatMap((p) => [slotTopic(p.slot), p.item, ...p.keywords]),
        ...plan.goals.flatMap((g) => g.keywords),
        ...plan.habits.flatMap((h) => h.keywords),
        ...plan.people.map((p) => p.name),
      ];
      if (planned.some((phrase) => mentions(turn.text, phrase))) namePlanned++;
      // A planted misstatement: an earlier noise turn of the session whose kind is `misstatement`.
      if (userTurns.slice(0, i).some((t) => t.noise === 'misstatement')) correctsPlanted++;
    });
  }
}
const pct = (n: number, of: number) => (of === 0 ? null : Number(((100 * n) / of).toFixed(1)));

// 2. PersonaMem context length.
const mean = (values: readonly number[]) =>
  values.length === 0 ? null : Math.round(values.reduce((a, b) => a + b, 0) / values.length);
function personaMem(dir: string) {
  const csv = join(dir, 'questions.csv');
  if (!existsSync(csv)) return null;
  const rows = parseCsv(readFileSync(csv, 'utf8')).filter((row) => row.length > 1);
  const header = rows.shift() ?? [];
  const col = (name: string) => header.indexOf(name);
  const contexts = new Map<string, Array<{ role: string; content: string }>>();
  for (const line of readFileSync(join(dir, 'shared_contexts.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    for (const [id, messages] of Object.entries(JSON.parse(line))) contexts.set(id, messages as never);
  }
  const tokenCache = new Map<string, number[]>();
  const counted: number[] = [];
  const column: number[] = [];
  for (const row of rows) {
    const id = row[col('shared_context_id')]!;
    const end = Number(row[col('end_index_in_shared_context')]);
    let perMessage = tokenCache.get(id);
    if (perMessage === undefined) {
      perMessage = (contexts.get(id) ?? []).map((m) => countTokens(m.content));
      tokenCache.set(id, perMessage);
    }
    counted.push(perMessage.slice(0, end).reduce((a, b) => a + b, 0));
    column.push(Number(row[col('context_length_in_tokens')]));
  }
  return {
    questions: rows.length,
    contexts: contexts.size,
    meanTokensColumn: mean(column),
    meanTokensCounted: mean(counted),
    minCounted: counted.length === 0 ? null : Math.min(...counted),
    maxCounted: counted.length === 0 ? null : Math.max(...counted),
  };
}
function realPersonaMem() {
  if (!existsSync(realFile)) return null;
  const rows = parseCsv(readFileSync(realFile, 'utf8')).filter((row) => row.length > 1);
  const header = rows.shift() ?? [];
  const col = header.indexOf('context_length_in_tokens');
  return { questions: rows.length, meanTokensColumn: mean(rows.map((row) => Number(row[col]))) };
}

// 3. Quarantine.
const quarantine = jsonl<{ stage: string; inputId: string; check?: string; reason: string }>(
  join(runDir, 'quarantine.jsonl'),
);
const byUnit: Record<string, number> = {};
for (const record of quarantine) {
  const unit = /:S\d+:T\d+$/.test(record.inputId)
    ? 'turn'
    : /:S\d+$/.test(record.inputId)
      ? 'session'
      : 'user';
  const key = `${record.stage}/${unit}/${record.check ?? ''}`;
  byUnit[key] = (byUnit[key] ?? 0) + 1;
}
const validationFile = join(runDir, 'validation.json');
const validation = existsSync(validationFile)
  ? (JSON.parse(readFileSync(validationFile, 'utf8')) as {
      totals: Record<string, number>;
      quarantined: unknown[];
      units?: unknown;
    })
  : null;

console.log(
  JSON.stringify(
    {
      runDir,
      users: dialogues.length,
      corrections: {
        turns: corrections,
        retractHeldPreference: retractHeld,
        retractHeldPreferencePct: pct(retractHeld, corrections),
        retractStatedHeldPreference: retractStated,
        retractStatedHeldPreferencePct: pct(retractStated, corrections),
        namePlannedFact: namePlanned,
        namePlannedFactPct: pct(namePlanned, corrections),
        correctPlantedMisstatement: correctsPlanted,
        correctPlantedMisstatementPct: pct(correctsPlanted, corrections),
        examples,
      },
      personamem: { run: personaMem(join(runDir, 'export/eval/personamem')), real: realPersonaMem() },
      quarantine: {
        records: quarantine.length,
        byStageUnitCheck: byUnit,
        quarantinedUsers: validation?.totals.quarantinedUsers ?? null,
        units: validation?.units ?? null,
      },
    },
    null,
    1,
  ),
);
