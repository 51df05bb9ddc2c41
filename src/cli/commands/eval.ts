import { type Command, InvalidArgumentError } from 'commander';
import { parseBaseUrl, parseNumber } from '../parse.js';

/** A share between 0 and 1. */
function parseRate(value: string): number {
  const n = parseNumber(value);
  if (n > 1) throw new InvalidArgumentError(`expected a share between 0 and 1, e.g. 0.02 (got "${value}")`);
  return n;
}

/** `persona-forge eval <set>` and `eval compare <dirs…>` (src/eval/). */
export function registerEvalCommand(program: Command): void {
  program
    .command('eval <set...>')
    .description(
      'evaluate a served model on a benchmark (an export/eval folder, LoCoMo, PersonaMem or Persona-MME files); `eval compare <dirA> <dirB>…` compares evaluations',
    )
    .option('--out <dir>', 'output folder (items.jsonl, summary.json, summary.md, report.html)')
    .option(
      '--llm-base-url <url>',
      'OpenAI-compatible endpoint serving the model (vLLM, SGLang, swift deploy, …)',
      parseBaseUrl,
    )
    .option('--llm-model <name>', 'model name the endpoint serves')
    .option('--llm-api-key-env <var>', 'environment variable holding the API key')
    .option('--strategy <name>', 'full | rag | agent (default full)')
    .option('--context <size>', 'prompt budget: 32k, 128k or a token count (default 32k)')
    .option('--limit <n>', 'evaluate the first n questions only', (v) => Math.trunc(parseNumber(v)))
    .option('--concurrency <n>', 'questions in flight (default 64)', (v) => Math.trunc(parseNumber(v)))
    .option('--budget-usd <x>', 'stop before spending more (exit 4; the same command resumes)', parseNumber)
    .option(
      '--judge-base-url <url>',
      'an OpenAI-compatible LLM judge for open answers (LoCoMo), besides token F1',
      parseBaseUrl,
    )
    .option('--judge-model <name>', 'the judge model name (default: --llm-model)')
    .option(
      '--max-error-rate <x>',
      'share of questions (0–1) allowed to fail after retries before the exit code is 1 (default 0); failed questions are never scored',
      parseRate,
    )
    .option(
      '--price-input-per-m <usd>',
      'USD per 1M prompt tokens of the served model (for --budget-usd)',
      parseNumber,
    )
    .option('--price-output-per-m <usd>', 'USD per 1M completion tokens of the served model', parseNumber)
    .action(
      async (
        args: string[],
        flags: {
          judgeBaseUrl?: string;
          judgeModel?: string;
          out?: string;
          llmBaseUrl?: string;
          llmModel?: string;
          llmApiKeyEnv?: string;
          strategy?: string;
          context?: string;
          limit?: number;
          concurrency?: number;
          budgetUsd?: number;
          maxErrorRate?: number;
          priceInputPerM?: number;
          priceOutputPerM?: number;
        },
      ) => {
        const { evalCommand, evalCompareCommand } = await import('../../eval/index.js');
        if (args[0] === 'compare') {
          const dirs = args.slice(1);
          if (dirs.length < 2)
            throw new Error('usage: persona-forge eval compare <dirA> <dirB> [<dirC> …] [--out dir]');
          for (const other of dirs.slice(1)) {
            const markdown = await evalCompareCommand(
              [dirs[0] as string, other],
              flags.out === undefined
                ? undefined
                : dirs.length > 2
                  ? `${flags.out}/${other.replace(/[\\/]+/g, '_')}`
                  : flags.out,
            );
            process.stdout.write(`${markdown}\n`);
          }
          return;
        }
        if (args.length !== 1)
          throw new Error('usage: persona-forge eval <set> --out <dir> --llm-base-url URL --llm-model NAME');
        if (flags.out === undefined || flags.llmBaseUrl === undefined || flags.llmModel === undefined) {
          throw new Error('eval needs --out, --llm-base-url and --llm-model');
        }
        const strategy = flags.strategy ?? 'full';
        if (!['full', 'rag', 'agent'].includes(strategy))
          throw new Error(`--strategy is full, rag or agent (got "${strategy}")`);
        const started = performance.now();
        let lastPrint = 0;
        const printSummary = (summary: import('../../eval/summary.js').EvalSummary) => {
          for (const row of summary.rows.filter((r) => r.by === 'overall')) {
            console.log(
              `${row.format}: ${(row.score * 100).toFixed(1)} (95% CI ${(row.low * 100).toFixed(1)}–${(row.high * 100).toFixed(1)}, n=${row.n})`,
            );
          }
          console.log(
            `wrote ${flags.out}/items.jsonl, summary.json, summary.md, report.html (${summary.scored} scored, ${summary.errors} failed)`,
          );
        };
        const { EvalFailuresError } = await import('../../eval/index.js');
        let result: Awaited<ReturnType<typeof evalCommand>>;
        try {
          result = await evalCommand({
            set: args[0] as string,
            out: flags.out,
            baseUrl: flags.llmBaseUrl,
            model: flags.llmModel,
            strategy: strategy as 'full' | 'rag' | 'agent',
            ...(flags.llmApiKeyEnv === undefined ? {} : { apiKeyEnv: flags.llmApiKeyEnv }),
            ...(flags.context === undefined ? {} : { context: flags.context }),
            ...(flags.limit === undefined ? {} : { limit: flags.limit }),
            ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
            ...(flags.budgetUsd === undefined ? {} : { budgetUsd: flags.budgetUsd }),
            ...(flags.judgeBaseUrl === undefined ? {} : { judgeBaseUrl: flags.judgeBaseUrl }),
            ...(flags.judgeModel === undefined ? {} : { judgeModel: flags.judgeModel }),
            ...(flags.maxErrorRate === undefined ? {} : { maxErrorRate: flags.maxErrorRate }),
            ...(flags.priceInputPerM === undefined ? {} : { priceInputPerM: flags.priceInputPerM }),
            ...(flags.priceOutputPerM === undefined ? {} : { priceOutputPerM: flags.priceOutputPerM }),
            onProgress: ({ done, total, resumed, failed }) => {
              const now = performance.now();
              if (done < total && now - lastPrint < 1000) return;
              lastPrint = now;
              const seconds = (now - started) / 1000;
              const rate = (done - resumed) / Math.max(seconds, 1e-3);
              const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
              process.stderr.write(
                `eval: ${done}/${total} questions${resumed > 0 ? ` (${resumed} resumed)` : ''}${failed > 0 ? `, ${failed} failed` : ''}, ${rate.toFixed(1)}/s, ETA ${eta}s\n`,
              );
            },
          });
        } catch (error) {
          // The scored part is still shown, then the failure (exit 1).
          if (error instanceof EvalFailuresError) printSummary(error.summary);
          throw error;
        }
        printSummary(result.summary);
      },
    );
}
