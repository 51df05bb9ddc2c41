import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/eval/load.js';
import {
  PERSONAMEM_32K_MEAN_TOKENS,
  personaMemMessages,
  personaMemTargets,
  placeQuestions,
} from '../../src/export/eval/personamem-context.js';
import { buildUserPlan } from '../../src/plan/index.js';
import { ExportConfig } from '../../src/schemas/export-config.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { createFidelityMeter } from '../../src/validate/fidelity.js';
import { indexUser } from '../../src/validate/types.js';
import { fixtureUsers } from '../plan/fixtures.js';
import { buildFixtureUser } from '../validate/fixture.js';

const REAL = join(import.meta.dirname, '../../../shared/data/personamem/questions_32k.csv');
const config = ExportConfig.parse({ eval: { splits: ['train', 'test'], allFamiliesInEachFormat: true } });

describe('PersonaMem context length', () => {
  it.skipIf(!existsSync(REAL))('defaults to the real questions_32k.csv mean context_length_in_tokens', () => {
    const rows = parseCsv(readFileSync(REAL, 'utf8')).filter((row) => row.length > 1);
    const header = rows.shift()!;
    const column = header.indexOf('context_length_in_tokens');
    const mean = rows.reduce((sum, row) => sum + Number(row[column]), 0) / rows.length;
    expect(Math.round(mean)).toBe(PERSONAMEM_32K_MEAN_TOKENS);
    expect(ExportConfig.parse({}).eval.personamemContextTokens).toBe(PERSONAMEM_32K_MEAN_TOKENS);
  });

  it('windows whole sessions to the target, counted with gpt-tokenizer, never cutting evidence', () => {
    const bundle = buildFixtureUser('user-0001', { sessions: 6 });
    const messages = personaMemMessages(bundle);
    const targets = personaMemTargets(bundle, config);
    expect(targets.length).toBeGreaterThan(0);
    const whole = placeQuestions(bundle, messages, targets, 1_000_000);
    const sessionTokens = messages.filter((m) => m.session === 5).reduce((sum, m) => sum + m.tokens, 0);
    const short = placeQuestions(bundle, messages, targets, messages[0]!.tokens + sessionTokens);
    for (const [i, placed] of short.entries()) {
      const window = [messages[0]!, ...messages.slice(placed.start, placed.end)];
      expect(placed.tokens).toBe(window.reduce((sum, m) => sum + countTokens(m.content), 0));
      // Starts at a session, never after the question's first evidence turn.
      expect(messages[placed.start - 1]?.session).not.toBe(messages[placed.start]!.session);
      const evidence = placed.qa.evidenceSlotIds.map((id) => indexUser(bundle).turnBySlot.get(id)!.turn.id);
      const first = Math.min(...evidence.map((id) => messages.findIndex((m) => m.turnId === id)));
      expect(placed.start).toBeLessThanOrEqual(first);
      // A huge target keeps the whole history; a small one is closer to it than the whole history.
      expect(whole[i]!.start).toBe(1);
      const target = messages[0]!.tokens + sessionTokens;
      expect(Math.abs(placed.tokens - target)).toBeLessThanOrEqual(Math.abs(whole[i]!.tokens - target));
    }
    expect(short.some((placed) => placed.start > 1)).toBe(true);
  });

  it('fidelity reports a corpus far from the target as off, and one at it as ok', () => {
    const measure = (contextTokens: number) => {
      const meter = createFidelityMeter({
        exportConfig: ExportConfig.parse({
          ...config,
          eval: { ...config.eval, personamemContextTokens: contextTokens },
        }),
      });
      for (const id of ['user-0001', 'user-0002']) meter.addUser(indexUser(buildFixtureUser(id)), new Map());
      return meter.finish().personamem_context_tokens!;
    };
    // The fixture's dialogues are a few hundred tokens: far from the real 24,846.
    const short = measure(PERSONAMEM_32K_MEAN_TOKENS);
    expect(short).toMatchObject({ unit: 'tokens', target: PERSONAMEM_32K_MEAN_TOKENS, ok: false });
    expect(short.value).toBeLessThan(2_000);
    expect(measure(short.value)).toMatchObject({ ok: true });
  });

  it('persona-tree test users realized offline reach the real mean within 10%', async () => {
    const users = fixtureUsers(18, 5).filter((user) => user.split === 'test');
    let tokens = 0;
    let questions = 0;
    for (const user of users) {
      const plan = buildUserPlan({ ...user, images: [] }, { config: { profile: 'persona-tree' }, seed: 42 });
      const dialogue = await realizeDialogue(plan, {
        realizer: createOfflineRealizer({ seed: 42 }),
        seed: 42,
      });
      const bundle = { plan, dialogue, memory: null };
      const placed = placeQuestions(
        bundle,
        personaMemMessages(bundle),
        personaMemTargets(bundle, config),
        config.eval.personamemContextTokens,
      );
      for (const question of placed) {
        tokens += question.tokens;
        questions++;
      }
    }
    expect(questions).toBeGreaterThan(30);
    const mean = tokens / questions;
    console.info(
      `persona-tree PersonaMem mean context: ${Math.round(mean)} tokens over ${questions} questions`,
    );
    expect(Math.abs(mean - PERSONAMEM_32K_MEAN_TOKENS)).toBeLessThanOrEqual(0.1 * PERSONAMEM_32K_MEAN_TOKENS);
  });
});
