import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/**
 * A program that embeds the library (no signal handling of its own) takes the run lock, says so,
 * then waits; the test signals it.
 */
function holder(runDir: string, extraListener: boolean) {
  const script = `
    import { acquireRunLock } from ${JSON.stringify(join(repo, 'src/pipeline/lock.ts'))};
    await acquireRunLock(${JSON.stringify(runDir)}, 'test');
    ${extraListener ? "process.on('SIGTERM', () => { console.log('own handler'); setTimeout(() => process.exit(7), 50); });" : ''}
    console.log('locked');
    setInterval(() => {}, 1000);
  `;
  return spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function signalWhenLocked(child: ReturnType<typeof holder>) {
  let out = '';
  await new Promise<void>((done) =>
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('locked')) done();
    }),
  );
  child.kill('SIGTERM');
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.on('exit', (c, s) => done([c, s])),
  );
  return { code, signal, out };
}

describe('the run lock under signals, embedded in a program without handlers', () => {
  it('is released on SIGTERM and the process ends by the signal, not by an exit code the library chose', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'pf-lock-'));
    dirs.push(runDir);
    const result = await signalWhenLocked(holder(runDir, false));
    expect(result.signal).toBe('SIGTERM');
    expect(result.code).toBeNull();
    expect(existsSync(join(runDir, '.pf-lock'))).toBe(false);
  });

  it("leaves the stop to the program's own listener, and the lock still goes when it exits", async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'pf-lock-'));
    dirs.push(runDir);
    const result = await signalWhenLocked(holder(runDir, true));
    expect(result.out).toContain('own handler');
    expect(result.code).toBe(7);
    expect(existsSync(join(runDir, '.pf-lock'))).toBe(false);
  });
});
