/**
 * Personas: base personas from the builtin generator, a local file or a Hub dataset, sampled
 * into disjoint train/test users, then enriched with Big Five scores and an initial core memory.
 */
export { describeBigFive, drawBigFive, interactionStyleFor } from './big-five.js';
export { countBuiltinCombinations, drawBuiltinPersona, generateBuiltinPersonas } from './builtin.js';
export { type EnrichPersonaOptions, enrichPersona, offlineEnrichment } from './enrich.js';
export { EnrichmentAnswer } from './enrich-prompt.js';
export { type PersonaFromRecordOptions, personaFromRecord } from './from-record.js';
export { type DownloadHubFileOptions, downloadHubFile } from './hub-source.js';
export { createNameRegistry, type NameRegistry } from './name-registry.js';
export { type RecordFormat, readRecords, type SourceRecord } from './records.js';
export { type SampledUser, type SamplePersonasOptions, samplePersonas, userIdFor } from './sample.js';
