// Child process for the kill -9 resume test: runs the test stages into argv[2].
import { runPipeline } from '../../src/pipeline/runner.js';
import { createCountingLlm, createTestStages, testConfig } from './test-stages.js';

const outDir = process.argv[2] as string;
const delayMs = Number(process.argv[3] ?? '0');
await runPipeline({
  config: testConfig({ concurrency: 3 }),
  configFile: 'test',
  outDir,
  llm: createCountingLlm(),
  stages: createTestStages({ users: 60, delayMs, failUsers: ['user-0013'] }),
  reporter: (event) => {
    if (event.type === 'stage-progress') process.stdout.write(`${event.stage} ${event.done}\n`);
  },
});
