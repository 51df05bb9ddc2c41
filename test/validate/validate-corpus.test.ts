import { describe, expect, it } from 'vitest';
import { VitaBenchSystemConfig } from '../../src/export/systems/config.js';
import { ValidateConfig, ValidationReport } from '../../src/schemas/validate-config.js';
import { validateCorpus } from '../../src/validate/index.js';
import { DEFECTS } from './defects.js';
import { buildFixtureCorpus } from './fixture.js';

const config = ValidateConfig.parse({});
/** Checks whose defects sit in rounds they name: quarantined as those rounds (src/validate/units.ts). */
const UNIT_CHECKS = new Set(['judge:coherence', 'judge:safety', 'correction_scope']);

describe('validateCorpus', () => {
  it('reports 0 failures of any kind on a clean corpus', async () => {
    const quarantined: unknown[] = [];
    const report = await validateCorpus(buildFixtureCorpus(12), {
      config,
      onQuarantine: (r) => quarantined.push(r),
    });
    expect(ValidationReport.parse(report)).toBeTruthy();
    expect(report.totals.ruleFailures).toBe(0);
    expect(report.totals.judgeFailures).toBe(0);
    expect(report.dedup.duplicateUtterances).toBe(0);
    expect(report.dedup.duplicateDialogues).toBe(0);
    expect(report.totals.quarantinedUsers).toBe(0);
    expect(quarantined).toEqual([]);
    expect(report.judgeMode).toBe('offline-heuristic');
    expect(report.totals.users).toBe(12);
    expect(report.totals.turns).toBe(12 * 3 * 8);
  });

  it('catches every one of ≥ 30 injected defects (every type at least once)', async () => {
    const users = buildFixtureCorpus(4 * DEFECTS.length + 2);
    const injected = new Map<string, string>();
    // Every other user gets a defect (so copy defects have a clean predecessor); defects cycle.
    let k = 0;
    for (let i = 1; i < users.length && k < 2 * DEFECTS.length; i += 2, k++) {
      const defect = DEFECTS[k % DEFECTS.length]!;
      defect.apply(users[i]!, users[i - 1]!);
      injected.set(users[i]!.plan.userId, defect.check);
    }
    expect(injected.size).toBeGreaterThanOrEqual(30);
    const quarantine: Array<{ inputId: string; check?: string | undefined; reason: string }> = [];
    const report = await validateCorpus(users, {
      config,
      onQuarantine: (record) => quarantine.push(record),
      vitabench: { config: VitaBenchSystemConfig.parse({ enabled: true }), seed: 7 },
    });
    for (const [userId, check] of injected) {
      if (UNIT_CHECKS.has(check)) {
        // A defect inside one round removes that round, not the user.
        expect(report.units!.some((u) => u.userId === userId && u.check === check)).toBe(true);
        expect(
          quarantine.some(
            (record) =>
              record.inputId.startsWith(`${userId}:S`) && record.check === check && record.reason !== '',
          ),
        ).toBe(true);
        continue;
      }
      const entry = report.quarantined.find((q) => q.userId === userId);
      expect(entry?.checks, `${userId} (${check})`).toContain(check);
      expect(
        quarantine.some(
          (record) => record.inputId === userId && record.check === check && record.reason !== '',
        ),
      ).toBe(true);
    }
    // Nothing else is quarantined: the clean users all pass.
    expect(new Set(report.quarantined.map((q) => q.userId))).toEqual(
      new Set([...injected].filter(([, check]) => !UNIT_CHECKS.has(check)).map(([userId]) => userId)),
    );
    for (const name of Object.keys(report.rules))
      expect(report.rules[name]!.failures, name).toBeGreaterThan(0);
    expect(report.dedup.duplicateDialogues).toBe(2);
  });

  it('labels judges by model when the judge role has an endpoint, using its answers', async () => {
    const calls: string[] = [];
    const llm = {
      isOffline: () => false,
      modelFor: () => 'judge-model',
      async safeStructured(_role: string, request: { messages: Array<{ content: string }> }) {
        calls.push(request.messages[1]!.content);
        return {
          ok: true as const,
          offline: false,
          value: {
            coherence: 0.2,
            safe: true,
            persona_consistency: 1,
            fact_expressed: 1,
            reason: 'replies ignore the user',
          },
        };
      },
    };
    const report = await validateCorpus(buildFixtureCorpus(2), {
      // One session per call: this stand-in answers the single-session shape.
      config: ValidateConfig.parse({ judges: { sessionsPerUser: 2, sessionsPerCall: 1, askSettled: true } }),
      llm: llm as never,
    });
    expect(report.judgeMode).toBe('llm:judge-model');
    expect(calls).toHaveLength(4);
    expect(calls[0]).toContain('Planned facts for this session:');
    expect(report.judges.coherence).toMatchObject({ evaluated: 2, failures: 2 });
    expect(report.quarantined.map((q) => q.checks)).toEqual([['judge:coherence'], ['judge:coherence']]);
  });
});
