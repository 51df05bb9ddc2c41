import { join } from 'node:path';
import type { ReduceStage } from '../pipeline/types.js';
import { writeFileAtomic } from '../util/fs.js';
import { collectReportData } from './collect.js';
import { renderReport } from './render.js';

/**
 * Writes `report.html`. Reads whatever earlier stages left (plan is required).
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
    const roles = ['realizer', 'judge', 'embedder'];
    const data = await collectReportData(ctx.runDir, {
      maxUsers: ctx.config.report.maxUsers,
      run: {
        name: ctx.config.name,
        // Usage is not shown: a resumed run makes fewer calls than an uninterrupted one, and the
        // report must be the same for the same data. manifest.json has the usage of each run.
        offline: Object.fromEntries(roles.map((role) => [role, ctx.llm.isOffline(role)])),
      },
    });
    await writeFileAtomic(join(ctx.runDir, 'report.html'), renderReport(data));
    return { in: data.users, out: 1, quarantined: 0 };
  },
};
