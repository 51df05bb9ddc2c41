export { collectReportData, type ReportData } from './collect.js';
export { renderReport } from './render.js';
export { reportStage } from './stage.js';
