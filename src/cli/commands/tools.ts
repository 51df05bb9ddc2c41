import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { LocomoFidelity, LocomoFigure } from '../../interpolate/types.js';
import { parseNumber } from '../parse.js';
import { registerTrainCommand } from './train.js';

/** JSON.parse that names the file (and line of a JSON Lines file) it could not read. */
async function parseJson(text: string, path: string, line?: number): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch (error) {
    const { InputError } = await import('../../errors/index.js');
    throw new InputError(
      path,
      `${line === undefined ? '' : `line ${line}: `}not valid JSON (${(error as Error).message.replace(/\n/g, '\\n')})`,
      {
        hint: 'give a JSON file (a LoCoMo list, a PersonaVLM record), a .jsonl file or a run directory',
      },
    );
  }
}

async function parseLines(text: string, path: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [i, line] of text.split('\n').entries())
    if (line.trim() !== '') out.push(await parseJson(line, path, i + 1));
  return out;
}

/** Reads a JSON file, a JSON Lines file (as an array) or a run directory's plan (as an array). */
async function readJsonOrJsonl(path: string): Promise<unknown> {
  if ((await stat(path)).isDirectory()) {
    const candidates = [join(path, 'plan/plan.jsonl'), join(path, 'plan.jsonl')];
    for (const candidate of candidates) {
      if ((await readdir(join(candidate, '..')).catch(() => [])).length > 0) {
        const text = await readFile(candidate, 'utf8').catch(() => null);
        if (text !== null) return parseLines(text, candidate);
      }
    }
    throw new Error(`${path} is a directory without plan/plan.jsonl`);
  }
  const text = await readFile(path, 'utf8');
  if (path.endsWith('.jsonl')) return parseLines(text, path);
  return parseJson(text, path);
}

/** schema, estimate, interpolate, push, train, serve, rescore, dev. */
export function registerToolCommands(program: Command): void {
  program
    .command('schema')
    .description(
      'write the JSON Schemas of pipeline, recipe and rewards files (the ones shipped in schemas/) for editor completion',
    )
    .requiredOption(
      '--out <dir>',
      'directory to write pipeline, recipe, recipe-base and rewards .schema.json into',
    )
    .action(async (flags: { out: string }) => {
      const { writeJsonSchemas } = await import('../../config/index.js');
      for (const path of await writeJsonSchemas(flags.out)) console.log(path);
    });

  program
    .command('estimate <pipeline>')
    .description('predict model calls, tokens and cost of a pipeline before running it')
    .option('--sample-users <n>', 'users actually walked through the stages, then scaled', (v) =>
      Math.trunc(parseNumber(v)),
    )
    .option('--llm-base-url <url>', 'as for run')
    .option('--llm-model <name>', 'as for run')
    .option('--json', 'print the estimate as JSON')
    .action(
      async (
        file: string,
        flags: { sampleUsers?: number; llmBaseUrl?: string; llmModel?: string; json?: boolean },
      ) => {
        const { estimatePipeline } = await import('../../pipeline/estimate.js');
        const report = await estimatePipeline(file, {
          ...(flags.sampleUsers === undefined ? {} : { sampleUsers: flags.sampleUsers }),
          ...(flags.llmBaseUrl !== undefined && flags.llmModel !== undefined
            ? { llm: { baseUrl: flags.llmBaseUrl, model: flags.llmModel } }
            : {}),
        });
        if (flags.json === true) {
          console.log(JSON.stringify(report, null, 2));
          return;
        }
        console.log(
          `${report.users} users (estimated from ${report.sampledUsers} planned and walked through the stages)`,
        );
        const perTurn = (tokens: number) =>
          report.userTurns === 0 ? '' : ` (${(tokens / report.userTurns).toFixed(0)}/user turn)`;
        for (const row of report.rows) {
          console.log(
            `  ${row.stage.padEnd(9)} ${row.role.padEnd(9)} ${row.endpoint.padEnd(12)} ${String(row.calls).padStart(9)} calls ${String(row.promptTokens).padStart(12)} in${perTurn(row.promptTokens).padEnd(18)} ${String(row.cachedPromptTokens).padStart(11)} cached ${String(row.completionTokens).padStart(11)} out  $${row.costUsd.toFixed(2)}`,
          );
        }
        console.log(
          `  total: ${report.total.calls} calls, ${report.total.promptTokens} prompt${perTurn(report.total.promptTokens)} (${report.total.cachedPromptTokens} cacheable as a prefix) + ${report.total.completionTokens} completion tokens, $${report.total.costUsd.toFixed(2)}; ${report.userTurns} user turns`,
        );
        if (report.offlineRoles.length > 0)
          console.log(`  offline (free): ${report.offlineRoles.join(', ')}`);
      },
    );

  program
    .command('interpolate')
    .description('splice generated sessions into a host conversation without breaking its timeline')
    .requiredOption(
      '--host <file>',
      'host conversation (LoCoMo json, PersonaVLM user_data.json, or a native dialogue)',
    )
    .requiredOption('--format <format>', 'locomo | personavlm | native')
    .requiredOption(
      '--sessions <file-or-plan>',
      'sessions to insert: a plan (realized offline), a dialogue, an M²A concept conversation, or a run directory',
    )
    .requiredOption('--out <file>', 'merged conversation, in the host format')
    .option('--seed <n>', 'seed for the insertion position', (v) => Math.trunc(parseNumber(v)), 42)
    .option('--count <n>', 'insert only the first N sessions', (v) => Math.trunc(parseNumber(v)))
    .option('--position <n>', 'insert after host session N (1-based) instead of a seeded position', (v) =>
      Math.trunc(parseNumber(v)),
    )
    .option(
      '--conversation <n>',
      'LoCoMo list: only this conversation gets sessions (user N mod n); default: every conversation, one user each',
      (v) => Math.trunc(parseNumber(v)),
    )
    .option('--report <file>', 'write the interpolation report(s) as JSON, with the LoCoMo fidelity counts')
    .action(
      async (flags: {
        report?: string;
        host: string;
        format: string;
        sessions: string;
        out: string;
        seed: number;
        count?: number;
        position?: number;
        conversation?: number;
      }) => {
        const { interpolateEachConversation, interpolateIntoHost } = await import(
          '../../interpolate/index.js'
        );
        const { sessionsForEachUser, sessionsForInsertion } = await import('../../synth/index.js');
        const { writeFileAtomic } = await import('../../util/fs.js');
        if (!['locomo', 'personavlm', 'native'].includes(flags.format)) {
          throw new Error(`--format must be locomo, personavlm or native (got "${flags.format}")`);
        }
        const host = await readJsonOrJsonl(flags.host);
        const source = await readJsonOrJsonl(flags.sessions);
        // A LoCoMo speaker has a life of their own: the generated user's biography stays out.
        const options = {
          seed: flags.seed,
          withoutIdentity: flags.format === 'locomo',
          ...(flags.count === undefined ? {} : { count: flags.count }),
        };
        const printWarnings = (warnings: readonly unknown[]) => {
          for (const warning of warnings) console.log(`warning: ${JSON.stringify(warning)}`);
        };
        // LoCoMo figures (defect counts, target 0) summed over the merged records.
        const printFidelity = (reports: ReadonlyArray<{ fidelity?: LocomoFidelity | undefined }>) => {
          const sum = new Map<string, { count: number; of: number; target: number }>();
          for (const r of reports)
            for (const [name, f] of Object.entries(r.fidelity ?? {}) as Array<[string, LocomoFigure]>) {
              const s = sum.get(name) ?? { count: 0, of: 0, target: f.target };
              sum.set(name, { count: s.count + f.count, of: s.of + f.of, target: f.target });
            }
          for (const [name, f] of sum)
            console.log(
              `fidelity ${name}: ${f.count} of ${f.of} (target ${f.target})${f.count > f.target ? ' OFF' : ''}`,
            );
        };
        // A LoCoMo list: one generated user per host conversation, for all of them (user c mod n).
        if (flags.format === 'locomo' && Array.isArray(host) && flags.conversation === undefined) {
          const users = await sessionsForEachUser(source, options, host.length);
          const { document, reports } = interpolateEachConversation({
            host,
            users,
            seed: flags.seed,
            ...(flags.position === undefined ? {} : { position: flags.position }),
          });
          await writeFileAtomic(flags.out, `${JSON.stringify(document, null, 2)}\n`);
          for (const r of reports) {
            console.log(
              `conversation ${r.conversation}: user ${r.user} (${users[r.user]?.userName ?? 'sessions'}) as ${r.speakers?.user} with ${r.speakers?.assistant}: ${r.inserted} sessions after host session ${r.position} (${r.hostSessions} → ${r.mergedSessions}), QA ${r.qaRemapped} remapped, ${r.qaAdded} added`,
            );
            printWarnings(r.warnings);
          }
          printFidelity(reports);
          if (flags.report !== undefined)
            await writeFileAtomic(flags.report, `${JSON.stringify(reports, null, 2)}\n`);
          if (users.length < host.length)
            console.log(
              `warning: ${host.length} host conversations, ${users.length} generated user(s) in ${flags.sessions}: users are reused`,
            );
          console.log(`→ ${flags.out}`);
          return;
        }
        const record =
          Array.isArray(source) && flags.conversation !== undefined
            ? source[flags.conversation % Math.max(1, source.length)]
            : source;
        const sessions = await sessionsForInsertion(record, options);
        const result = interpolateIntoHost({
          host,
          format: flags.format as 'locomo' | 'personavlm' | 'native',
          sessions,
          seed: flags.seed,
          ...(flags.position === undefined ? {} : { position: flags.position }),
          ...(flags.conversation === undefined ? {} : { conversation: flags.conversation }),
        });
        await writeFileAtomic(flags.out, `${JSON.stringify(result.document, null, 2)}\n`);
        const r = result.report;
        console.log(
          `inserted ${r.inserted} sessions after host session ${r.position} (${r.hostSessions} → ${r.mergedSessions} sessions) at ${r.times.join(', ')}${r.speakers === undefined ? '' : `, spoken by ${r.speakers.user} and ${r.speakers.assistant}`}`,
        );
        console.log(`QA: ${r.qaRemapped} remapped, ${r.qaAdded} added → ${flags.out}`);
        printWarnings(r.warnings);
        printFidelity([r]);
        if (flags.report !== undefined)
          await writeFileAtomic(flags.report, `${JSON.stringify(r, null, 2)}\n`);
      },
    );

  program
    .command('push <export-dir>')
    .description('upload an export directory to a Hugging Face dataset repo (token from HF_TOKEN)')
    .requiredOption('--repo <org/name>', 'dataset repository')
    .option('--private', 'create the repository private')
    .option('--dry-run', 'list the files and sizes, upload nothing')
    .option('--hub-url <url>', 'Hub endpoint (default https://huggingface.co)')
    .action(
      async (
        exportDir: string,
        flags: { repo: string; private?: boolean; dryRun?: boolean; hubUrl?: string },
      ) => {
        const { pushToHub } = await import('../../export/index.js');
        const token = process.env.HF_TOKEN;
        const result = await pushToHub(exportDir, {
          repo: flags.repo,
          private: flags.private === true,
          dryRun: flags.dryRun === true,
          ...(flags.hubUrl === undefined ? {} : { hubUrl: flags.hubUrl }),
          ...(token === undefined ? {} : { token }),
        });
        for (const file of result.files) console.log(`${String(file.bytes).padStart(12)}  ${file.path}`);
        console.log(
          `${result.files.length} files, ${result.totalBytes} bytes${result.dryRun ? ' (dry run: nothing uploaded)' : ` → ${result.commit?.url ?? result.repo}`}`,
        );
      },
    );

  registerTrainCommand(program);

  program
    .command('serve')
    .description('serve rewards and the retrieval environment over HTTP for ms-swift GRPO/DAPO')
    .option(
      '--config <rewards.yaml>',
      'reward server config (judge endpoint, weights, cache, limits, memory run dir)',
    )
    .option('--host <host>', 'address to bind (default 127.0.0.1)')
    .option('--port <n>', 'port (default 8000; 0 picks a free one)', (v) => Math.trunc(parseNumber(v)))
    .option('--token-env <var>', 'environment variable holding the bearer token clients must send')
    .action(async (flags: { config?: string; host?: string; port?: number; tokenEnv?: string }) => {
      const { serveRewards } = await import('../../reward/index.js');
      const { server, warnings } = await serveRewards({
        ...(flags.config === undefined ? {} : { configPath: flags.config }),
        ...(flags.host === undefined ? {} : { host: flags.host }),
        ...(flags.port === undefined ? {} : { port: flags.port }),
        ...(flags.tokenEnv === undefined ? {} : { tokenEnv: flags.tokenEnv }),
      });
      for (const warning of warnings) console.error(`warning: ${warning}`);
      console.log(
        `reward server on ${server.url} (GET /health, /v1/rewards/functions, /metrics; POST /v1/rewards, /get_reward, /v1/memory/retrieve); stop with Ctrl-C`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await server.close();
    });

  program
    .command('rescore <rollouts>')
    .description('re-score saved rollouts (ms-swift completions.jsonl) with the configured judge')
    .requiredOption('--reward <names>', 'reward function name(s), comma-separated')
    .option('--weights <w>', 'comma-separated weights, one per reward')
    .option('--config <rewards.yaml>', 'reward server config (judge endpoint, cache)')
    .option('--out <file>', 'write the rescored rows here')
    .action(
      async (file: string, flags: { reward: string; weights?: string; config?: string; out?: string }) => {
        const { rescoreFile } = await import('../../reward/index.js');
        const summary = await rescoreFile({
          file,
          reward: flags.reward.split(',').map((name) => name.trim()),
          ...(flags.weights === undefined
            ? {}
            : { weights: flags.weights.split(',').map((w) => parseNumber(w.trim())) }),
          ...(flags.config === undefined ? {} : { configPath: flags.config }),
          ...(flags.out === undefined ? {} : { out: flags.out }),
        });
        console.log(JSON.stringify(summary, null, 2));
      },
    );

  const dev = program.command('dev').description('developer tools');
  dev
    .command('fake-llm')
    .description('serve a fake OpenAI-compatible API on 127.0.0.1 (try the online path with no model)')
    .option(
      '--port <n>',
      'port (default 8001; `serve` defaults to 8000)',
      (v) => Math.trunc(parseNumber(v)),
      8001,
    )
    .option(
      '--model <names>',
      'model names /v1/models lists, comma-separated (every name is answered; the endpoint probe checks the list)',
      'fake',
    )
    .option('--latency <ms>', 'added latency per request, in milliseconds', parseNumber, 0)
    .option('--latency-ms <n>', 'same as --latency', parseNumber)
    .option(
      '--faults <rate>',
      'share of requests given an injected fault (429 with Retry-After, 500, hang, truncated or non-JSON body, schema-invalid answer)',
      parseNumber,
      0,
    )
    .option('--fault-rate <x>', 'same as --faults', parseNumber)
    .option(
      '--oracle <set>',
      'answer the questions of this eval set: the gold answer for --oracle-rate of them, a wrong one otherwise',
    )
    .option('--oracle-rate <p>', 'share of questions the oracle answers right (default 0.7)', parseNumber)
    .option(
      '--dialect <name>',
      "how user turns are written: free (like a chat model) or plain (the plan's words)",
      'free',
    )
    .option(
      '--contradictions <rate>',
      'share of free-written facts that contradict the plan (default 0)',
      parseNumber,
      0,
    )
    .action(
      async (flags: {
        port: number;
        model: string;
        latency: number;
        latencyMs?: number;
        faults: number;
        faultRate?: number;
        oracle?: string;
        oracleRate?: number;
        dialect: string;
        contradictions: number;
      }) => {
        const { runFakeLlmCli } = await import('../../dev/fake-llm/index.js');
        const faultRate = flags.faultRate ?? flags.faults;
        if (faultRate > 1) throw new Error(`--faults is a share of requests from 0 to 1 (got ${faultRate})`);
        const server = await runFakeLlmCli({
          port: flags.port,
          model: flags.model,
          latencyMs: flags.latencyMs ?? flags.latency,
          faultRate,
          ...(flags.oracle === undefined ? {} : { oracle: flags.oracle }),
          ...(flags.oracleRate === undefined ? {} : { oracleRate: flags.oracleRate }),
          dialect: flags.dialect,
          contradictionRate: flags.contradictions,
        });
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        await server.close();
      },
    );
}
