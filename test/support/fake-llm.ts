/** The fake OpenAI-compatible server, for tests (it lives in src/dev so the CLI can serve it too). */
export * from '../../src/dev/fake-llm/index.js';

/** The flags that point a command at a fake model server: `--llm-base-url <url> --llm-model <model>`. */
export function fakeModelArgs(url: string, model = 'fake'): string[] {
  return ['--llm-base-url', url, '--llm-model', model];
}
