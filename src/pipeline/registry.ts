import { exportStage } from '../export/stage.js';
import { memoryStage } from '../memory/stage.js';
import { planStage } from '../plan/stage.js';
import { reportStage } from '../report/stage.js';
import { STAGE_ROLES } from '../schemas/pipeline.js';
import { synthStage } from '../synth/stage.js';
import { validateStage } from '../validate/stage.js';
import type { StageEntry } from './types.js';

/**
 * Every stage a pipeline file can name, with the model roles it may call (so the manifest can
 * say which stages ran offline).
 */
export const defaultStages: Record<string, StageEntry> = {
  plan: { stage: planStage as StageEntry['stage'], roles: [...(STAGE_ROLES.plan ?? [])] },
  synth: { stage: synthStage as StageEntry['stage'], roles: [...(STAGE_ROLES.synth ?? [])] },
  memory: { stage: memoryStage as StageEntry['stage'], roles: [...(STAGE_ROLES.memory ?? [])] },
  validate: { stage: validateStage, roles: [...(STAGE_ROLES.validate ?? [])] },
  export: { stage: exportStage, roles: [...(STAGE_ROLES.export ?? [])] },
  report: { stage: reportStage, roles: [...(STAGE_ROLES.report ?? [])] },
};
