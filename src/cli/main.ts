import { Command, CommanderError } from 'commander';
import { exitCodeFor, isPersonaForgeError } from '../errors/index.js';
import { registerDataCommands } from './commands/data.js';
import { registerScaleCommands } from './commands/scale.js';
import { registerToolCommands } from './commands/tools.js';

/**
 * The `persona-forge` command line: argv → one library call → formatted output. All behaviour
 * lives in the library; this file only parses, dispatches and reports errors.
 */
export function createProgram(): Command {
  const program = new Command('persona-forge')
    .description('Training data for long-term personalized assistants, ms-swift training and rewards.')
    .option('--debug', 'show stack traces on errors')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerDataCommands(program);
  registerToolCommands(program);
  registerScaleCommands(program);
  return program;
}

/** Commands that finish with a status other than success (e.g. a failed preflight) report it here. */
export function setExitCode(code: number): void {
  process.exitCode = code;
}

/** Entry point used by bin/persona-forge.js. Sets process.exitCode; never throws. */
export async function main(argv: string[]): Promise<void> {
  const program = createProgram();
  const debug = argv.includes('--debug');
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    process.exitCode = exitCodeFor(error);
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
