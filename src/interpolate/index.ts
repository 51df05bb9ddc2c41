export { type EvidenceWarning, orderWarnings, parseEvidence } from './dia-id.js';
export {
  type EachConversationOptions,
  type EachConversationReport,
  interpolateEachConversation,
} from './each.js';
export { formatLocomoTime, formatPlainTime, parseLocomoTime, parsePlainTime } from './host-time.js';
export { interpolateIntoHost } from './interpolate.js';
export { interpolateLocomoRecord, locomoSessionNumbers } from './locomo.js';
export { interpolateNative } from './native.js';
export { interpolatePersonaVlm } from './personavlm.js';
export {
  defaultSpeakers,
  hostSpeakers,
  insertedSpeakerProblems,
  renameUser,
  type SpeakerMapping,
} from './speakers.js';
export { interpolationTimes, placeSessions } from './times.js';
export type {
  HostFormat,
  InsertedQa,
  InsertSessions,
  InterpolateOptions,
  InterpolationReport,
  InterpolationResult,
} from './types.js';
