export { createHeuristicJudges, type HeuristicScore } from './heuristics.js';
export { judgementScore, judgeSession, renderJudgePrompt, SessionJudgement } from './llm-judge.js';
export { createJudgeRunner, pickSessions } from './run-judges.js';
export type { JudgeMode, JudgeVerdict } from './types.js';
