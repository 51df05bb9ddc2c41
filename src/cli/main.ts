import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { exitCodeFor, isPersonaForgeError } from '../errors/index.js';
import { registerDataCommands } from './commands/data.js';
import { registerEvalCommand } from './commands/eval.js';
import { registerScaleCommands } from './commands/scale.js';
import { registerToolCommands } from './commands/tools.js';
import { registerViewCommand } from './commands/view.js';

/**
 * The `persona-forge` command line: argv → one library call → formatted output. All behaviour
 * lives in the library; this file only parses, dispatches and reports errors.
 */
export function createProgram(options: { json?: boolean } = {}): Command {
  const program = new Command('persona-forge')
    .description('Training data for long-term personalized assistants, ms-swift training and rewards.')
    .option('--debug', 'show stack traces on errors')
    .version(packageVersion(), '-V, --version', 'print the persona-forge version')
    .exitOverride();
  if (options.json === true) {
    // Set before the commands are added: subcommands copy the output settings when created.
    program.configureOutput({ writeErr: () => {}, outputError: () => {} });
  } else {
    program.showHelpAfterError('(run with --help for usage)');
  }
  registerDataCommands(program);
  registerToolCommands(program);
  registerEvalCommand(program);
  registerScaleCommands(program);
  registerViewCommand(program);
  return program;
}

/** The version in package.json (read once, synchronously, for `--version`). */
function packageVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

/**
 * With `--help`, the command path that names no command (`persona-forge frobnicate --help`,
 * `persona-forge slurm frob --help`): commander would print the parent's help and exit 0.
 */
function unknownCommand(program: Command, argv: string[]): string | undefined {
  if (!argv.includes('--help') && !argv.includes('-h')) return undefined;
  let command = program;
  for (const word of argv) {
    if (word.startsWith('-')) return undefined;
    if (command.commands.length === 0) return undefined;
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (next === undefined) return word === 'help' ? undefined : word;
    command = next;
  }
  return undefined;
}

/** Commands that finish with a status other than success (e.g. a failed preflight) report it here. */
export function setExitCode(code: number): void {
  process.exitCode = code;
}

/** One JSON event line on stdout (the `--json` output). */
function jsonEvent(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

/**
 * A closed stdout (`persona-forge run … --json | head -1`) ends the process quietly: whoever
 * read the output has what it wanted.
 */
function exitQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

/**
 * Entry point used by bin/persona-forge.js. Sets process.exitCode (0 ok, 1 error, 2 usage,
 * 3 empty result, 4 budget); never throws. With `--json` every message, errors included, is one
 * JSON event on stdout.
 */
export async function main(argv: string[]): Promise<void> {
  exitQuietlyOnClosedPipe();
  const debug = argv.includes('--debug');
  const json = argv.includes('--json');
  const program = createProgram({ json });
  const unknown = unknownCommand(program, argv);
  if (unknown !== undefined) {
    process.exitCode = 2;
    const message = `unknown command '${unknown}' (run persona-forge --help for the commands)`;
    if (json) jsonEvent({ type: 'error', code: 'USAGE', message, exitCode: 2 });
    else console.error(`error: ${message}`);
    return;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander's own help and version exits are 0; its usage errors are 2 (not its 1).
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      if (json && error.exitCode !== 0 && error.code !== 'commander.help') {
        jsonEvent({
          type: 'error',
          code: 'USAGE',
          message: error.message.replace(/^error: /, ''),
          exitCode: 2,
        });
      }
      return;
    }
    process.exitCode = exitCodeFor(error);
    if (json) {
      jsonEvent({
        type: 'error',
        code: isPersonaForgeError(error) ? error.code : 'ERROR',
        message: error instanceof Error ? error.message : String(error),
        ...(isPersonaForgeError(error) && error.hint !== undefined ? { hint: error.hint } : {}),
        exitCode: process.exitCode,
      });
      return;
    }
    if (debug) {
      console.error(error);
      return;
    }
    if (isPersonaForgeError(error)) {
      console.error(`error [${error.code}]: ${error.message}`);
      if (error.hint !== undefined) console.error(`hint: ${error.hint}`);
    } else {
      console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
      console.error('(run again with --debug for the stack trace)');
    }
  }
}
