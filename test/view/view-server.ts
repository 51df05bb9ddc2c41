import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { BIN } from '../support/cli.js';

/** `persona-forge view` started through the shipped binary, stopped by its pid. */
export interface RunningView {
  url: string;
  /** The line it printed when it began serving. */
  banner: string;
  stop(): Promise<void>;
}

export async function startView(runDir: string, args: string[] = ['--port', '0']): Promise<RunningView> {
  const child: ChildProcess = spawn(process.execPath, [BIN, 'view', runDir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await ended;
  };
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /(http:\/\/\S+?)\/?(\s|$)/.exec(line)?.[1];
    if (url !== undefined) return { url, banner: line, stop };
  }
  await stop();
  throw new Error(`persona-forge view ended before serving: ${stderr}`);
}
