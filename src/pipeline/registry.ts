import { exportStage } from '../export/stage.js';
import { memoryStage } from '../memory/stage.js';
import { planStage } from '../plan/stage.js';
import { reportStage } from '../report/stage.js';
import { synthStage } from '../synth/stage.js';
import { validateStage } from '../validate/stage.js';
import type { StageEntry } from './runner.js';

/**
 * Every stage a pipeline file can name, with the model roles it may call (so the manifest can
 * say which stages ran offline).
 */
export const defaultStages: Record<string, StageEntry> = {
  plan: { stage: planStage as StageEntry['stage'], roles: ['realizer'] },
  synth: { stage: synthStage as StageEntry['stage'], roles: ['realizer', 'judge'] },
  memory: { stage: memoryStage as StageEntry['stage'], roles: ['judge', 'embedder'] },
  validate: { stage: validateStage, roles: ['judge'] },
  export: { stage: exportStage, roles: ['realizer'] },
  report: { stage: reportStage, roles: [] },
};
