export { loadIndex } from './index-store.js';
export { readRunFacts } from './run-facts.js';
export { startViewServer, type ViewServer, type ViewServerOptions } from './server.js';
export type * from './types.js';
