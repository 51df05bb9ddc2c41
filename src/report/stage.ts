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
    const data = await collectReportData(ctx.runDir, { maxUsers: ctx.config.report.maxUsers });
    await writeFileAtomic(join(ctx.runDir, 'report.html'), renderReport(data));
    return { in: data.users, out: 1, quarantined: 0 };
  },
};
