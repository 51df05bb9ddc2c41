export { renderDatasetCard } from './dataset-card.js';
export * from './eval/index.js';
export {
  type ExportDatasetOptions,
  type ExportSummary,
  exportDataset,
  listFiles,
  RL_COLUMNS,
  SFT_COLUMNS,
} from './export-dataset.js';
export { type PushToHubOptions, type PushToHubResult, pushToHub } from './hub.js';
export { mixQuotas, selectByQuota } from './mix.js';
export { encodeParquet, writeParquetFile, writeParquetFromJsonl } from './parquet.js';
export { PROMPTS } from './prompts.js';
export { EXPORT_INPUTS, type ExportBundle, readExportBundles } from './read-run.js';
export { type Message, renderProfile, renderTraceInput, snapshotAt } from './render.js';
export { type RlRow, rlCandidates, type SftRow, sftCandidates } from './samples.js';
export { exportStage } from './stage.js';
export { formatLocomoTime, formatMinute, optionLabel } from './time-format.js';
