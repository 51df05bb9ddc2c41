import type { Command } from 'commander';
import { parseNumber } from '../parse.js';

/** `persona-forge view <run-dir>`: the read-only corpus browser (src/view/). */
export function registerViewCommand(program: Command): void {
  program
    .command('view <run-dir>')
    .description(
      'browse a run in a local web app (users, dialogues with their evidence, questions, samples, fidelity); read-only',
    )
    .option('--host <host>', 'address to bind (default 127.0.0.1: this machine only)')
    .option('--port <n>', 'port (default 8400; 0 picks a free one)', (v) => Math.trunc(parseNumber(v)))
    .action(async (runDir: string, flags: { host?: string; port?: number }) => {
      const { startViewServer } = await import('../../view/index.js');
      const server = await startViewServer({
        runDir,
        ...(flags.host === undefined ? {} : { host: flags.host }),
        ...(flags.port === undefined ? {} : { port: flags.port }),
      });
      if (!['127.0.0.1', 'localhost', '::1'].includes(flags.host ?? '127.0.0.1'))
        console.error(
          `warning: serving on ${flags.host}: anyone who can reach this address can read the corpus`,
        );
      if (!server.indexSaved)
        console.error(
          `warning: could not save the index in ${runDir}/.view; it will be built again next time`,
        );
      console.log(
        `persona-forge view: ${server.users} users (index ${server.index === 'built' ? 'built' : 'reused'} in ${server.indexSeconds.toFixed(2)} s) on ${server.url}  (read-only; stop with Ctrl-C)`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await server.close();
    });
}
