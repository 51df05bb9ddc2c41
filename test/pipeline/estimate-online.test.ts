import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EstimateReport } from '../../src/pipeline/estimate.js';
import { runCli } from '../support/cli.js';

const repo = resolve(import.meta.dirname, '../..');

describe('estimate with every role online', () => {
  it('counts one session-teacher call per session, a few embedding calls per user, per-turn and cacheable tokens', async () => {
    const args = ['--llm-base-url', 'http://127.0.0.1:9/v1', '--llm-model', 'm', '--sample-users', '3'];
    const result = await runCli(repo, ['estimate', 'pipelines/quickstart.yaml', ...args, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EstimateReport;
    const row = (stage: string, role: string) =>
      report.rows.find((item) => item.stage === stage && item.role === role);
    const teacher = row('memory', 'judge');
    const embedder = row('memory', 'embedder');
    expect(report.userTurns).toBeGreaterThan(report.users);
    // One call per session (several user turns each), not one per trace (two or more per user turn).
    expect(teacher?.calls).toBeGreaterThan(0);
    expect(teacher?.calls).toBeLessThan(report.userTurns / 2);
    expect(embedder?.calls).toBeGreaterThan(0);
    expect(embedder?.calls).toBeLessThanOrEqual(5 * report.users);
    // The teacher's system prompt repeats across calls: a prefix cache serves part of the prompt.
    expect(teacher?.cachedPromptTokens).toBeGreaterThan(0);
    expect(teacher?.cachedPromptTokens).toBeLessThan(teacher?.promptTokens ?? 0);
    expect(report.total.cachedPromptTokens).toBeLessThan(report.total.promptTokens);

    const text = await runCli(repo, ['estimate', 'pipelines/quickstart.yaml', ...args]);
    expect(text.stdout).toMatch(/memory\s+judge .* in \(\d+\/user turn\)\s+\d+ cached/);
    expect(text.stdout).toMatch(/prompt \(\d+\/user turn\) \(\d+ cacheable as a prefix\)/);
  }, 180_000);
});
