/** The fake OpenAI-compatible server, for tests (it lives in src/dev so the CLI can serve it too). */
export * from '../../src/dev/fake-llm/index.js';
