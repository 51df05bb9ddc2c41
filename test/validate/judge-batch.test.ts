import { afterAll, describe, expect, it } from 'vitest';
import { ValidateConfig } from '../../src/schemas/validate-config.js';
import { validateCorpus } from '../../src/validate/index.js';
import { fakeClient } from '../llm/helpers.js';
import { startFakeLlmServer } from '../support/fake-llm.js';
import { DEFECTS } from './defects.js';
import { buildFixtureCorpus } from './fixture.js';

/**
 * The model judge asks differently, not something else: against the fake model's oracle answers,
 * a user's sessions packed into one call with the settled facts left out give exactly the
 * validation outcome of one call per session with every fact listed.
 */
describe('validation judges packed per user', async () => {
  const server = await startFakeLlmServer();
  afterAll(() => server.close());
  const corpus = () => {
    const users = buildFixtureCorpus(2 * DEFECTS.length + 2);
    // Every other user gets a defect, so judges and rules have something to fail.
    for (let i = 1, k = 0; i < users.length; i += 2, k++)
      DEFECTS[k % DEFECTS.length]?.apply(users[i] as never, users[i - 1] as never);
    return users;
  };
  const run = async (judges: Record<string, unknown>) => {
    const before = { ...server.stats };
    const quarantine: unknown[] = [];
    const report = await validateCorpus(corpus(), {
      config: ValidateConfig.parse({ judges: { sessionsPerUser: 3, ...judges } }),
      llm: fakeClient(server.url),
      onQuarantine: (record) => quarantine.push(record),
    });
    return {
      report,
      quarantine,
      calls: server.stats.chatRequests - before.chatRequests,
      promptTokens: server.stats.promptTokens - before.promptTokens,
    };
  };
  const perItem = await run({ sessionsPerCall: 1, askSettled: true });
  const packed = await run({});
  const packedAll = await run({ askSettled: true });

  it('gives the same validation outcome: verdicts, scores, quarantine', () => {
    expect(packed.report.judgeMode).toBe('llm:fake-model');
    expect(packed.report).toEqual(perItem.report);
    expect(packed.quarantine).toEqual(perItem.quarantine);
    // The judges did fail users (else the comparison proves little).
    const failures = Object.values(perItem.report.judges).reduce((sum, j) => sum + j.failures, 0);
    expect(failures).toBeGreaterThan(0);
  });

  it('makes one call per user and leaves out the facts settled on write', () => {
    const users = perItem.report.totals.users;
    expect(perItem.calls).toBe(3 * users);
    expect(packed.calls).toBe(users);
    expect(packedAll.calls).toBe(users);
    expect(packedAll.report).toEqual(perItem.report);
    // Persona and instructions once per user; facts settled on write are not listed.
    expect(packedAll.promptTokens).toBeLessThan(perItem.promptTokens);
    expect(packed.promptTokens).toBeLessThan(packedAll.promptTokens);
  });

  it('asks a failed pack again one session at a time', async () => {
    const flaky = await startFakeLlmServer({
      respond: (request) =>
        /### Session \d+/.test(request.messages[1]?.content ?? '') ? 'not json' : undefined,
    });
    try {
      const quarantine: unknown[] = [];
      const report = await validateCorpus(corpus(), {
        config: ValidateConfig.parse({ judges: { sessionsPerUser: 3 } }),
        llm: fakeClient(flaky.url, { maxSchemaRetries: 0 }),
        onQuarantine: (record) => quarantine.push(record),
      });
      expect(report).toEqual(perItem.report);
      expect(quarantine).toEqual(perItem.quarantine);
      expect(flaky.stats.chatRequests).toBe(4 * report.totals.users);
    } finally {
      await flaky.close();
    }
  });
});
