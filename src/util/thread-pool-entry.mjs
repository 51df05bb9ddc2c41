// Worker thread entry of thread-pool.ts: registers tsx's loader (the sources are TypeScript),
// loads the handler module, then answers each job message with the handler's result.
// Plain JavaScript so it runs without a loader already in place.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const handler = (await import(workerData.module))[workerData.exportName];
parentPort.on('message', async ({ id, message }) => {
  try {
    parentPort.postMessage({ id, ok: true, value: await handler(message, workerData.data) });
  } catch (error) {
    parentPort.postMessage({
      id,
      ok: false,
      error: { message: error instanceof Error ? error.message : String(error), code: error?.code },
    });
  }
});
