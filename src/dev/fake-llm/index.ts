export { FAULT_KINDS, type FaultKind, type FaultOptions, faultFor } from './faults.js';
export { type RunFakeLlmCliOptions, runFakeLlmCli } from './run-fake-llm-cli.js';
export { answerForSchema } from './schema-answer.js';
export {
  type FakeChatRequest,
  type FakeLlmServer,
  type FakeLlmServerOptions,
  type FakeLlmStats,
  startFakeLlmServer,
} from './server.js';
