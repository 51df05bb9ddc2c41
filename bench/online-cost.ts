/**
 * What the online PersonaVLM corpus costs, measured from the endpoint's side: the personavlm
 * pipeline at small scale (4 train + 2 test users) with every role on the fake model, counting
 * the requests and the prompt/completion tokens the server saw during each stage, per user turn,
 * and the share of prompt tokens its simulated prefix cache served (`cached_tokens`), next to
 * what `persona-forge estimate` predicts for the same file (its cacheable share from the prompts'
 * stable leading lines).
 * Run: npx --no-install tsx bench/online-cost.ts
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadPipeline } from '../src/config/index.js';
import { startFakeLlmServer } from '../src/dev/fake-llm/index.js';
import { applyLlmOverride, createLlmClient } from '../src/llm/index.js';
import { estimatePipeline } from '../src/pipeline/estimate.js';
import { defaultStages } from '../src/pipeline/registry.js';
import { runPipeline } from '../src/pipeline/runner.js';

const repo = resolve(import.meta.dirname, '..');
const work = await mkdtemp(join(tmpdir(), 'pf-bench-online-cost-'));
const file = join(work, 'personavlm-small.yaml');
const train = 4;
const test = 2;
await writeFile(
  file,
  `extends: ${join(repo, 'pipelines/personavlm.yaml')}\npersonas:\n  train: ${train}\n  test: ${test}\n`,
);
const server = await startFakeLlmServer();
try {
  const override = { baseUrl: server.url, model: 'fake' };
  const { config: loaded } = await loadPipeline(file);
  const config = {
    ...loaded,
    stages: loaded.stages.filter((stage) => stage !== 'export' && stage !== 'report'),
    llm: { ...applyLlmOverride(loaded.llm, override), cache: { ...loaded.llm.cache, enabled: false } },
  };
  const snapshot = () => ({
    calls: server.stats.chatRequests + server.stats.embeddingRequests,
    embeddingCalls: server.stats.embeddingRequests,
    promptTokens: server.stats.promptTokens,
    cachedPromptTokens: server.stats.cachedPromptTokens,
    completionTokens: server.stats.completionTokens,
  });
  type Counts = ReturnType<typeof snapshot>;
  const measured: Record<string, Counts> = {};
  let current: { stage: string; at: Counts } | null = null;
  const close = () => {
    if (current === null) return;
    const now = snapshot();
    measured[current.stage] = {
      calls: now.calls - current.at.calls,
      embeddingCalls: now.embeddingCalls - current.at.embeddingCalls,
      promptTokens: now.promptTokens - current.at.promptTokens,
      cachedPromptTokens: now.cachedPromptTokens - current.at.cachedPromptTokens,
      completionTokens: now.completionTokens - current.at.completionTokens,
    };
  };
  const out = join(work, 'run');
  await runPipeline({
    config,
    configFile: file,
    outDir: out,
    llm: createLlmClient(config.llm, { cache: false }),
    stages: defaultStages,
    workers: 1,
    reporter: (event) => {
      if (event.type !== 'stage-start') return;
      close();
      current = { stage: event.stage, at: snapshot() };
    },
  });
  close();
  const dialogues = (await readFile(join(out, 'dialogues/dialogues.jsonl'), 'utf8')).trim().split('\n');
  const userTurns = dialogues
    .map((line) => JSON.parse(line) as { sessions: Array<{ turns: Array<{ speaker: string }> }> })
    .flatMap((user) => user.sessions.flatMap((session) => session.turns))
    .filter((turn) => turn.speaker === 'user').length;

  const estimate = await estimatePipeline(file, { sampleUsers: train + test, llm: override });
  type Predicted = {
    calls: number;
    promptTokens: number;
    cachedPromptTokens: number;
    completionTokens: number;
  };
  const predicted: Record<string, Predicted> = {};
  for (const row of estimate.rows) {
    const sum = predicted[row.stage] ?? {
      calls: 0,
      promptTokens: 0,
      cachedPromptTokens: 0,
      completionTokens: 0,
    };
    sum.calls += row.calls;
    sum.promptTokens += row.promptTokens;
    sum.cachedPromptTokens += row.cachedPromptTokens;
    sum.completionTokens += row.completionTokens;
    predicted[row.stage] = sum;
  }
  const perTurn = (n: number, turns: number) => (turns === 0 ? 0 : Math.round((n / turns) * 10) / 10);
  const share = (part: number, whole: number) => Math.round((part / Math.max(1, whole)) * 100) / 100;
  const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((a / b) * 100) / 100);
  const stages = Object.keys(measured).filter((stage) => measured[stage]?.calls !== 0 || predicted[stage]);
  const rows = stages.map((stage) => {
    const m = measured[stage] as Counts;
    const e = predicted[stage] ?? { calls: 0, promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0 };
    const measuredPerTurn = perTurn(m.promptTokens, userTurns);
    const estimatedPerTurn = perTurn(e.promptTokens, estimate.userTurns);
    return {
      stage,
      measured: {
        calls: m.calls,
        embeddingCallsPerUser: m.embeddingCalls / (train + test),
        promptTokensPerUserTurn: measuredPerTurn,
        cachedShare: share(m.cachedPromptTokens, m.promptTokens),
        completionTokensPerUserTurn: perTurn(m.completionTokens, userTurns),
      },
      estimated: {
        calls: e.calls,
        promptTokensPerUserTurn: estimatedPerTurn,
        cachedShare: share(e.cachedPromptTokens, e.promptTokens),
        completionTokensPerUserTurn: perTurn(e.completionTokens, estimate.userTurns),
      },
      promptMeasuredOverEstimated: ratio(measuredPerTurn, estimatedPerTurn),
    };
  });
  const measuredPrompt = Object.values(measured).reduce((sum, m) => sum + m.promptTokens, 0);
  const measuredCached = Object.values(measured).reduce((sum, m) => sum + m.cachedPromptTokens, 0);
  const memoryJudge = estimate.rows.find((row) => row.stage === 'memory' && row.role === 'judge');
  console.log(
    JSON.stringify(
      {
        users: train + test,
        userTurns,
        estimateUserTurns: estimate.userTurns,
        stages: rows,
        total: {
          measuredPromptTokensPerUserTurn: perTurn(measuredPrompt, userTurns),
          estimatedPromptTokensPerUserTurn: perTurn(estimate.total.promptTokens, estimate.userTurns),
          measuredCachedShare: share(measuredCached, measuredPrompt),
          estimatedCachedShare:
            Math.round((estimate.total.cachedPromptTokens / Math.max(1, estimate.total.promptTokens)) * 100) /
            100,
          estimatedTeacherShare:
            Math.round(((memoryJudge?.promptTokens ?? 0) / Math.max(1, estimate.total.promptTokens)) * 100) /
            100,
          measuredOverEstimated:
            Math.round(
              (perTurn(measuredPrompt, userTurns) /
                Math.max(1, perTurn(estimate.total.promptTokens, estimate.userTurns))) *
                100,
            ) / 100,
        },
      },
      null,
      2,
    ),
  );
} finally {
  await server.close();
  await rm(work, { recursive: true, force: true });
}
