import { execa } from 'execa';

/** Options of a {@link RunProcess} call. */
export interface RunProcessOptions {
  /** The complete environment of the child (not merged with the parent's). */
  env: Record<string, string>;
  cwd?: string;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
}

/** A started child process. */
export interface RunningProcess {
  pid: number | undefined;
  /** Sends a signal to the child's whole process group (the child leads its own group). */
  kill(signal: NodeJS.Signals): void;
  /** Settles when the child exits; never rejects for a non-zero exit. */
  result: Promise<{ exitCode: number | undefined; signal: string | undefined }>;
}

/** The one seam through which the launcher starts processes (swift, ssh, nvidia-smi, python). */
export type RunProcess = (file: string, args: string[], options: RunProcessOptions) => RunningProcess;

/**
 * The default runner: execa, its own process group (`detached: true`) so a signal reaches
 * torchrun and every rank, output streamed as text chunks.
 *
 * @example
 * const child = execaRunProcess('swift', ['sft', '--model', 'm'], { env: { ...process.env } as Record<string, string> });
 * const { exitCode } = await child.result;
 */
export const execaRunProcess: RunProcess = (file, args, options) => {
  const child = execa(file, args, {
    env: options.env,
    extendEnv: false,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    detached: true,
    reject: false,
    buffer: false,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => options.onStdout?.(chunk));
  child.stderr?.on('data', (chunk: string) => options.onStderr?.(chunk));
  const result = child.then(
    (r) => ({
      exitCode: typeof r.exitCode === 'number' ? r.exitCode : undefined,
      signal: r.signal ?? undefined,
    }),
    (error: unknown) => {
      const e = error as { exitCode?: number; signal?: string; message?: string };
      if (e.exitCode === undefined && e.signal === undefined) {
        options.onStderr?.(`${e.message ?? String(error)}\n`);
        return { exitCode: 127, signal: undefined };
      }
      return { exitCode: e.exitCode, signal: e.signal };
    },
  );
  return {
    pid: child.pid,
    kill(signal) {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    },
    result,
  };
};

/**
 * Runs a short command to completion and collects its output (preflight probes).
 *
 * @example
 * const { exitCode, stdout } = await collectProcess(execaRunProcess, 'nvidia-smi', ['-L'], env);
 */
export async function collectProcess(
  run: RunProcess,
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const child = run(file, args, {
    env,
    onStdout: (c) => {
      stdout += c;
    },
    onStderr: (c) => {
      stderr += c;
    },
  });
  const { exitCode } = await child.result;
  return { exitCode, stdout, stderr };
}
