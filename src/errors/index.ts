/**
 * One error root for the whole library. Callers branch on `code` or on the class, never on the
 * message text. Every message says what failed, the offending value and how to fix it.
 *
 * @example
 * try { loadPipeline('p.yaml') } catch (error) {
 *   if (error instanceof ConfigError) console.error(error.file, error.issues);
 * }
 */
export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_NOT_FOUND'
  | 'INPUT_INVALID'
  | 'LLM_CALL_FAILED'
  | 'LLM_SCHEMA_MISMATCH'
  | 'BUDGET_EXCEEDED'
  | 'STAGE_FAILED'
  | 'PLAN_INVALID'
  | 'SYNTH_FAILED'
  | 'INTERPOLATION_FAILED'
  | 'MEMORY_OP_INVALID'
  | 'VALIDATION_FAILED'
  | 'EXPORT_FAILED'
  | 'HUB_FAILED'
  | 'TRAINING_JOB_FAILED'
  | 'PREFLIGHT_FAILED'
  | 'RECIPE_INVALID'
  | 'REWARD_FAILED'
  | 'EMPTY_RESULT'
  | 'RUN_LOCKED'
  | 'DISK_FULL'
  | 'MERGE_INVALID'
  | 'OUT_DIR_NOT_A_RUN'
  | 'EVAL_FAILED'
  | 'NOT_FOUND';

/**
 * Process exit codes, documented in README.md: 0 ok, 1 error, 2 usage, 3 empty result
 * (a stage or export left no records), 4 budget reached.
 */
export const EXIT_CODES = { ok: 0, error: 1, usage: 2, empty: 3, budget: 4 } as const;

/** The exit code the CLI uses for an error thrown by the library. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof PersonaForgeError) {
    if (error.code === 'BUDGET_EXCEEDED') return EXIT_CODES.budget;
    if (error.code === 'EMPTY_RESULT') return EXIT_CODES.empty;
  }
  return EXIT_CODES.error;
}

export interface PersonaForgeErrorOptions {
  cause?: unknown;
  /** A one-line hint telling the user how to fix the problem. */
  hint?: string;
}

export class PersonaForgeError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: PersonaForgeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
  }
}

/**
 * A failure of one item that the configuration says must stop the whole run rather than
 * quarantine the item (e.g. `memory.teacherOnFailure: fail`). Map stages stop and rethrow it.
 */
export class RunStopError extends PersonaForgeError {}

/** One problem inside a configuration file, located by its YAML path. */
export interface ConfigIssue {
  path: string;
  message: string;
  value?: unknown;
}

/** A pipeline, recipe or reward config file that cannot be loaded; names the file and every bad path. */
export class ConfigError extends PersonaForgeError {
  readonly file: string;
  readonly issues: ConfigIssue[];

  constructor(file: string, issues: ConfigIssue[], options: PersonaForgeErrorOptions = {}) {
    const lines = issues.map((issue) => {
      const shown = issue.value === undefined ? '' : ` (got ${JSON.stringify(issue.value)})`;
      return `  at ${issue.path || '<root>'}: ${issue.message}${shown}`;
    });
    super('CONFIG_INVALID', `${file} is invalid:\n${lines.join('\n')}`, options);
    this.file = file;
    this.issues = issues;
  }
}

/** Bad input data (a record, a CLI flag, a host conversation): names the source and field. */
export class InputError extends PersonaForgeError {
  readonly source: string;
  readonly field: string | undefined;

  constructor(source: string, message: string, options: PersonaForgeErrorOptions & { field?: string } = {}) {
    super(
      'INPUT_INVALID',
      `${source}${options.field === undefined ? '' : ` (${options.field})`}: ${message}`,
      options,
    );
    this.source = source;
    this.field = options.field;
  }
}

export class LlmCallError extends PersonaForgeError {
  readonly status: number | undefined;
  readonly isRetryable: boolean;
  readonly endpoint: string;

  constructor(
    endpoint: string,
    message: string,
    options: PersonaForgeErrorOptions & { status?: number; isRetryable?: boolean } = {},
  ) {
    super('LLM_CALL_FAILED', `LLM endpoint "${endpoint}": ${message}`, options);
    this.endpoint = endpoint;
    this.status = options.status;
    this.isRetryable = options.isRetryable ?? false;
  }
}

/** The model answered, but never with JSON that satisfies the requested schema. */
export class LlmSchemaError extends PersonaForgeError {
  readonly attempts: number;
  readonly lastIssues: string;

  constructor(
    endpoint: string,
    attempts: number,
    lastIssues: string,
    options: PersonaForgeErrorOptions = {},
  ) {
    super(
      'LLM_SCHEMA_MISMATCH',
      `LLM endpoint "${endpoint}" gave no schema-valid answer in ${attempts} attempts: ${lastIssues}`,
      options,
    );
    this.attempts = attempts;
    this.lastIssues = lastIssues;
  }
}

export class BudgetExceededError extends PersonaForgeError {
  readonly budgetUsd: number;
  readonly spentUsd: number;

  constructor(budgetUsd: number, spentUsd: number) {
    super(
      'BUDGET_EXCEEDED',
      `budget of $${budgetUsd.toFixed(4)} reached (spent $${spentUsd.toFixed(4)}); the run stopped before exceeding it`,
      { hint: 'raise --budget-usd and run the same command again: finished records are kept' },
    );
    this.budgetUsd = budgetUsd;
    this.spentUsd = spentUsd;
  }
}

/**
 * A stage (or an export) ended with no records left: every input was quarantined. The run
 * stops after that stage; the CLI exits with code 3.
 */
export class EmptyResultError extends PersonaForgeError {
  readonly stage: string;
  readonly total: number;
  readonly topReasons: Array<{ reason: string; count: number }>;

  constructor(stage: string, total: number, topReasons: Array<{ reason: string; count: number }>) {
    const reasons = topReasons.map((r) => `${r.reason} (${r.count})`).join('; ');
    super(
      'EMPTY_RESULT',
      `no records left after ${stage}: ${total} of ${total} quarantined — see quarantine.jsonl${
        reasons === '' ? '' : ` (top reasons: ${reasons})`
      }`,
    );
    this.stage = stage;
    this.total = total;
    this.topReasons = topReasons;
  }
}

export class StageError extends PersonaForgeError {
  readonly stage: string;

  constructor(stage: string, message: string, options: PersonaForgeErrorOptions = {}) {
    super('STAGE_FAILED', `stage "${stage}": ${message}`, options);
    this.stage = stage;
  }
}

export class MemoryOpError extends PersonaForgeError {
  constructor(message: string, options: PersonaForgeErrorOptions = {}) {
    super('MEMORY_OP_INVALID', message, options);
  }
}

export class TrainingJobError extends PersonaForgeError {
  readonly command: string;
  readonly exitCode: number | undefined;
  readonly stderrTail: string;

  constructor(
    command: string,
    exitCode: number | undefined,
    stderrTail: string,
    options: PersonaForgeErrorOptions = {},
  ) {
    super(
      'TRAINING_JOB_FAILED',
      `command failed with exit code ${exitCode ?? 'unknown'}: ${command}\n${stderrTail}`,
      options,
    );
    this.command = command;
    this.exitCode = exitCode;
    this.stderrTail = stderrTail;
  }
}

export class PreflightError extends PersonaForgeError {
  readonly failures: string[];

  constructor(failures: string[]) {
    super('PREFLIGHT_FAILED', `preflight failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
    this.failures = failures;
  }
}

/** A recipe that cannot become a valid ms-swift command (unknown flag, bad batch arithmetic, …). */
export class RecipeError extends PersonaForgeError {
  readonly flag: string | undefined;
  readonly closest: string | undefined;

  constructor(message: string, options: PersonaForgeErrorOptions & { flag?: string; closest?: string } = {}) {
    super('RECIPE_INVALID', message, options);
    this.flag = options.flag;
    this.closest = options.closest;
  }
}

export class HubError extends PersonaForgeError {
  constructor(message: string, options: PersonaForgeErrorOptions = {}) {
    super('HUB_FAILED', message, options);
  }
}

/** A user's dialogue could not be realized to plan (a chunk kept missing required slots, …); the runner quarantines the user. */
export class SynthError extends PersonaForgeError {
  readonly userId: string;
  /** Machine-readable reason, e.g. `slots_not_expressed`, `invalid_plan_times`, `concepts_invalid`. */
  readonly reason: string;
  readonly details: unknown;

  constructor(
    userId: string,
    reason: string,
    message: string,
    options: PersonaForgeErrorOptions & { details?: unknown } = {},
  ) {
    super('SYNTH_FAILED', `user "${userId}": ${message}`, options);
    this.userId = userId;
    this.reason = reason;
    this.details = options.details;
  }
}

/** Sessions cannot be spliced into a host conversation (gap too small, bad position, unreadable host). */
export class InterpolationError extends PersonaForgeError {
  constructor(message: string, options: PersonaForgeErrorOptions = {}) {
    super('INTERPOLATION_FAILED', message, options);
  }
}

/** A plan that cannot be built or found (bad plan settings, a user missing from plan.jsonl). */
export class PlanError extends PersonaForgeError {
  constructor(
    message: string,
    options: PersonaForgeErrorOptions & { code?: 'PLAN_INVALID' | 'NOT_FOUND' } = {},
  ) {
    super(options.code ?? 'PLAN_INVALID', message, options);
  }
}

/** True for any error this library threw on purpose. */
export function isPersonaForgeError(error: unknown): error is PersonaForgeError {
  return error instanceof PersonaForgeError;
}
