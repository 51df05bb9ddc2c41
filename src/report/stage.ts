import { join } from 'node:path';
import type { ReduceStage } from '../pipeline/types.js';
import { STAGE_ROLES } from '../schemas/pipeline.js';
import { writeFileAtomic } from '../util/fs.js';
import { hashValue } from '../util/hash.js';
import { loadModelTokenizer, type ModelTokenizer } from '../util/model-tokenizer.js';
import { gitCommit, packageVersion } from '../util/provenance.js';
import { collectReportData } from './collect.js';
import { collectExportChecks } from './export-checks.js';
import { renderReport } from './render.js';
import { collectRunHeader, type StageUsage } from './run-header.js';

const ROLES = ['realizer', 'judge', 'embedder'];

/** Tokenizers loaded by this process (loading one takes seconds; a process may write many reports). */
const tokenizers = new Map<string, Promise<ModelTokenizer>>();
function tokenizerFor(spec: string): Promise<ModelTokenizer> {
  let loaded = tokenizers.get(spec);
  if (loaded === undefined) {
    loaded = loadModelTokenizer(spec);
    loaded.catch(() => tokenizers.delete(spec));
    tokenizers.set(spec, loaded);
  }
  return loaded;
}

/**
 * Writes `report.html`: the go/no-go header first, then what earlier stages left (plan is
 * required). The report runs before the manifest is written, so the header is what the running
 * pipeline knows; offline stages show no usage (they call no model), so an offline report is the
 * same bytes however often the run was resumed.
 *
 * @example persona-forge report out/quickstart
 */
export const reportStage: ReduceStage = {
  kind: 'reduce',
  name: 'report',
  inputs: ['plan'],
  outputs: ['report.html'],
  units: { in: 'users', out: 'files' },
  async run(ctx) {
    const offline = Object.fromEntries(ROLES.map((role) => [role, ctx.llm.isOffline(role)]));
    const data = await collectReportData(ctx.runDir, {
      maxUsers: ctx.config.report.maxUsers,
      run: { name: ctx.config.name, offline },
    });
    const byStage = ctx.llm.usage().byStage;
    const stages: StageUsage[] = ctx.config.stages
      .filter((name) => name !== 'report')
      .map((name) => {
        const usage = byStage[name];
        return {
          stage: name,
          offline: (STAGE_ROLES[name] ?? []).every((role) => ctx.llm.isOffline(role)),
          calls: usage?.calls ?? 0,
          cacheHits: usage?.cacheHits ?? 0,
          tokens: (usage?.promptTokens ?? 0) + (usage?.completionTokens ?? 0),
          cachedPromptTokens: usage?.cachedPromptTokens ?? 0,
          costUsd: usage?.costUsd ?? 0,
        };
      });
    data.header = await collectRunHeader(ctx.runDir, {
      live: {
        name: ctx.config.name,
        version: await packageVersion(),
        commit: await gitCommit(),
        seed: ctx.config.seed,
        configHash: hashValue(ctx.config),
        roles: ROLES.map((role) => ({
          role,
          offline: offline[role] === true,
          model: ctx.llm.modelFor(role),
        })),
        stages,
        usageSource: 'this invocation of the pipeline (manifest.json records each invocation)',
      },
    });
    const tokenizer = await tokenizerFor(ctx.config.report.tokenizer);
    data.exportChecks = await collectExportChecks(ctx.runDir, ctx.config, {
      tokenizer,
      maxLength: ctx.config.report.maxLength,
      imageTokens: ctx.config.report.imageTokens,
    });
    const over = data.exportChecks.lengths.reduce((sum, check) => sum + check.over, 0);
    if (over > 0) {
      data.header.reasons.push(
        `${over} exported rows are longer than max_length ${ctx.config.report.maxLength}`,
      );
      data.header.verdict = 'no-go';
    }
    await writeFileAtomic(join(ctx.runDir, 'report.html'), renderReport(data));
    return { in: data.users, out: 1, quarantined: 0 };
  },
};
