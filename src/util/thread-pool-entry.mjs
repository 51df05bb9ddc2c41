// Worker thread entry of thread-pool.ts: loads the handler, then answers each job message with
// the handler's result. The handler comes from the compiled bundle when there is one
// (worker-code.ts), else from the TypeScript sources through tsx's loader. Plain JavaScript so
// it runs without a loader already in place.
import { parentPort, workerData } from 'node:worker_threads';

const { code, compiled, data } = workerData;
let handler;
if (compiled !== null) {
  handler = (await import(compiled)).handler;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const value = (await import(code.module))[code.exportName];
  handler = code.wrap === undefined ? value : (await import(code.wrap.module))[code.wrap.exportName](value);
}
parentPort.on('message', async ({ id, message }) => {
  try {
    parentPort.postMessage({ id, ok: true, value: await handler(message, data) });
  } catch (error) {
    parentPort.postMessage({
      id,
      ok: false,
      error: { message: error instanceof Error ? error.message : String(error), code: error?.code },
    });
  }
});
