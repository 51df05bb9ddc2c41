export * from './dedup/index.js';
export * from './judges/index.js';
export { type ReadRunOptions, RUN_FILES, readRunBundles } from './read-run.js';
export * from './rules/index.js';
export { validateStage } from './stage.js';
export {
  indexUser,
  type LocatedTurn,
  type RuleCheck,
  type RuleFailure,
  type RuleOptions,
  type UserBundle,
  type UserIndex,
} from './types.js';
export { type ValidateCorpusOptions, validateCorpus } from './validate-corpus.js';
