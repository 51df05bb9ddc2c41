import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDataset, listFiles } from '../../src/export/index.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { ValidateConfig, ValidationReport } from '../../src/schemas/validate-config.js';
import { writeJson } from '../../src/util/fs.js';
import { validateCorpus } from '../../src/validate/index.js';
import type { UserBundle } from '../../src/validate/types.js';
import { writeRun } from '../export/write-run.js';
import { buildFixtureCorpus } from './fixture.js';

/**
 * Plants one near-repeated turn (PersonaVLM scale: 6 of 700 users were quarantined whole for
 * it): round 1 of session 0 repeats round 0's user turn word for word and carries the evidence of
 * the user's first question. Only that round may go, with the question whose evidence it held.
 */
function plantRepeat(bundle: UserBundle): {
  repeated: string;
  reply: string;
  replyText: string;
  qaIds: string[];
} {
  const turns = bundle.dialogue.sessions[0]!.turns;
  const [first, , repeat, reply] = turns as [
    (typeof turns)[0],
    (typeof turns)[0],
    (typeof turns)[0],
    (typeof turns)[0],
  ];
  repeat.text = first.text;
  repeat.slots = first.slots;
  first.slots = [];
  const slot = bundle.plan.slots.find((s) => s.id === repeat.slots[0])!;
  slot.round = repeat.round;
  slot.time = repeat.time;
  const qaIds = bundle.plan.qa.filter((q) => q.evidenceSlotIds.includes(slot.id)).map((q) => q.id);
  return { repeated: repeat.id, reply: reply.id, replyText: reply.text, qaIds };
}

describe('quarantine at the finest unit', () => {
  let root: string;
  let report: ValidationReport;
  let planted: ReturnType<typeof plantRepeat>;
  const quarantine: Array<{
    inputId: string;
    check?: string | undefined;
    reason: string;
    details?: unknown;
  }> = [];
  const users = buildFixtureCorpus(4);

  beforeAll(async () => {
    planted = plantRepeat(users[1]!);
    report = await validateCorpus(users, {
      config: ValidateConfig.parse({}),
      onQuarantine: (record) => quarantine.push(record),
    });
    root = await mkdtemp(join(tmpdir(), 'c-units-'));
    await writeRun(join(root, 'run'), users);
    await writeJson(join(root, 'run', 'validation.json'), report);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('quarantines the repeated round, keeps the user and records the reason', () => {
    expect(ValidationReport.parse(report)).toBeTruthy();
    expect(report.quarantined).toEqual([]);
    expect(report.totals.quarantinedUsers).toBe(0);
    expect(report.units).toEqual([
      expect.objectContaining({
        userId: users[1]!.plan.userId,
        unit: 'turn',
        id: planted.repeated,
        check: 'judge:coherence',
        turns: [planted.repeated, planted.reply],
        reason: expect.stringContaining('repeats an earlier turn'),
      }),
    ]);
    expect(quarantine).toContainEqual(
      expect.objectContaining({ inputId: planted.repeated, check: 'judge:coherence' }),
    );
    expect(report.users.find((u) => u.userId === users[1]!.plan.userId)?.quarantined).toBe(false);
  });

  it('drops the question whose evidence sat in the round, with the reason', () => {
    expect(planted.qaIds.length).toBeGreaterThan(0);
    expect(report.droppedQa).toEqual(
      planted.qaIds.map((qaId) => ({
        userId: users[1]!.plan.userId,
        qaId,
        reason: expect.stringContaining(`evidence turn ${planted.repeated} was quarantined`),
      })),
    );
    expect(report.totals).toMatchObject({ quarantinedUnits: 1, droppedQa: planted.qaIds.length });
    for (const qaId of planted.qaIds)
      expect(quarantine).toContainEqual(
        expect.objectContaining({
          inputId: `${users[1]!.plan.userId}:${qaId}`,
          check: 'evidence_quarantined',
        }),
      );
  });

  it('exports the rest of the user without the round, its memory targets or the dropped question', async () => {
    const runDir = join(root, 'run');
    const summary = await exportDataset(runDir, {
      config: ExportConfig.parse({
        // The fixture's histories are short: PersonaMem contexts of any length (pruning is tested).
        eval: {
          splits: ['train', 'test'],
          allFamiliesInEachFormat: true,
          personamemContextRange: { min: 0, max: 1_000_000 },
        },
      }),
      seed: 7,
    });
    expect(summary.excluded).toBe(0);
    const userId = users[1]!.plan.userId;
    const files = (await listFiles(join(runDir, 'export'))).filter((f) => /\.(jsonl|json|csv)$/.test(f.path));
    const dropped = users[1]!.plan.qa.filter((q) => planted.qaIds.includes(q.id));
    let userRows = 0;
    for (const file of files) {
      const text = await readFile(join(runDir, 'export', file.path), 'utf8');
      // The removed round's reply is unique text: no row, memory target or eval context shows it.
      expect(text.includes(planted.replyText), `${file.path} shows the removed round`).toBe(false);
      for (const qa of dropped)
        expect(text.includes(`${qa.id}"`), `${file.path} exports ${qa.id}`).toBe(false);
      userRows += text.split(userId).length - 1;
    }
    expect(userRows).toBeGreaterThan(0);
    // The rest of the user is exported: another question, and session 0's later rounds in the eval contexts.
    const sft = await readFile(join(runDir, 'export', 'sft', 'train.jsonl'), 'utf8');
    const kept = users[1]!.plan.qa.find((q) => !planted.qaIds.includes(q.id))!;
    expect(sft).toContain(`${userId}:reasoning:${kept.id}`);
    const contexts = await readFile(
      join(runDir, 'export', 'eval', 'personamem', 'shared_contexts.jsonl'),
      'utf8',
    );
    expect(contexts).toContain(users[1]!.dialogue.sessions[0]!.turns[5]!.text);
    // On worker threads (lines read from their byte spans, dialogues read for the pruned user):
    // the same bytes.
    const threads = join(root, 'export-threads');
    await exportDataset(runDir, {
      config: ExportConfig.parse({
        // The fixture's histories are short: PersonaMem contexts of any length (pruning is tested).
        eval: {
          splits: ['train', 'test'],
          allFamiliesInEachFormat: true,
          personamemContextRange: { min: 0, max: 1_000_000 },
        },
      }),
      seed: 7,
      outDir: threads,
      workers: 2,
    });
    const inline = await listFiles(join(runDir, 'export'));
    expect((await listFiles(threads)).map((f) => f.path)).toEqual(inline.map((f) => f.path));
    for (const file of inline)
      expect(await readFile(join(threads, file.path)), file.path).toEqual(
        await readFile(join(runDir, 'export', file.path)),
      );
  }, 60_000);

  it('still quarantines the whole user when every round is affected', async () => {
    const [user] = buildFixtureCorpus(1);
    for (const session of user!.dialogue.sessions)
      for (const turn of session.turns) turn.text = 'Same words again and again, every single time.';
    const whole = await validateCorpus([user!], { config: ValidateConfig.parse({}) });
    expect(whole.quarantined.map((q) => q.userId)).toEqual([user!.plan.userId]);
    expect(whole.units).toEqual([]);
  });
});
