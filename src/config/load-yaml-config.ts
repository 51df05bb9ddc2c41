import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type Document, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError } from '../errors/index.js';
import { hashValue } from '../util/hash.js';
import { deepMerge, isPlainObject } from './deep-merge.js';
import { type EnvRecord, interpolateEnv } from './interpolate-env.js';
import { toConfigIssues } from './zod-issues.js';

export interface LoadYamlConfigOptions {
  /** Variables for `${VAR}` interpolation. @default process.env */
  env?: EnvRecord;
  /** A value deep-merged over the file (after `extends:`), e.g. from CLI flags. @default undefined */
  overrides?: unknown;
}

export interface LoadedConfig<T> {
  config: T;
  /** Absolute path of the file that was loaded. */
  file: string;
  /** sha256 of the validated config's stable JSON (recorded in the manifest). */
  resolvedHash: string;
  /** The merged, interpolated object before validation. */
  raw: unknown;
}

/**
 * Loads a YAML config file: follows `extends: <relative path>` chains (maps merge, arrays
 * replace), substitutes `${VAR}` / `${VAR:-default}`, applies overrides and validates with
 * `schema`. Any problem throws a `ConfigError` naming the file, the YAML path, the bad value
 * and a fix.
 *
 * @example
 * const { config } = await loadYamlConfig('recipes/sft.yaml', SftRecipe, { env: process.env });
 */
export async function loadYamlConfig<S extends z.ZodType>(
  path: string,
  schema: S,
  options: LoadYamlConfigOptions = {},
): Promise<LoadedConfig<z.output<S>>> {
  const file = resolve(path);
  const env = options.env ?? process.env;
  const sources: Source[] = [];
  let raw = await readWithExtends(file, env, [], sources);
  if (options.overrides !== undefined) raw = deepMerge(raw, options.overrides);
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = toConfigIssues(result.error.issues, raw, schema).map((issue) => {
      const where = locate(sources, issue.path, file);
      return where === undefined ? issue : { ...issue, message: `${issue.message} (${where})` };
    });
    throw new ConfigError(file, issues);
  }
  return { config: result.data, file, resolvedHash: hashValue(result.data), raw };
}

/** One file of an extends chain, kept to say which file and line set a bad value. */
interface Source {
  file: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** "line N" in the loaded file, or "set in <base file> line N" when a base file set the value. */
function locate(sources: readonly Source[], path: string, top: string): string | undefined {
  const keys = path === '' ? [] : path.split('.');
  for (const source of sources) {
    if (keys.length === 0 || !source.doc.hasIn(keys)) continue;
    const node = source.doc.getIn(keys, true) as { range?: [number, number, number] } | undefined;
    const offset = node?.range?.[0];
    const line = offset === undefined ? undefined : source.lineCounter.linePos(offset).line;
    const at = line === undefined ? '' : `line ${line}`;
    return source.file === top ? at || undefined : `set in ${source.file}${at ? ` ${at}` : ''}`;
  }
  return undefined;
}

async function readWithExtends(
  file: string,
  env: EnvRecord,
  chain: string[],
  sources: Source[],
): Promise<unknown> {
  if (chain.includes(file)) {
    throw new ConfigError(chain[chain.length - 1] ?? file, [
      {
        path: 'extends',
        message: `extends cycle: ${[...chain, file].join(' → ')}; fix: remove one link`,
        value: file,
      },
    ]);
  }
  const parsed = await readOne(file, env, chain[chain.length - 1], sources);
  if (!isPlainObject(parsed) || parsed.extends === undefined) return parsed;
  const { extends: base, ...rest } = parsed;
  if (typeof base !== 'string' || base === '') {
    throw new ConfigError(file, [
      {
        path: 'extends',
        message: 'extends must be a relative file path; fix: write extends: ./base.yaml',
        value: base,
      },
    ]);
  }
  const merged = await readWithExtends(resolve(dirname(file), base), env, [...chain, file], sources);
  return deepMerge(merged, rest);
}

async function readOne(
  file: string,
  env: EnvRecord,
  parent: string | undefined,
  sources: Source[],
): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const where =
      parent === undefined ? [] : [{ path: 'extends', message: `cannot read ${file}`, value: file }];
    throw new ConfigError(
      parent ?? file,
      where.length > 0
        ? where
        : [{ path: '', message: `cannot read file: ${(error as Error).message}; fix: check the path` }],
      { cause: error },
    );
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.slice(0, 1).map((error) => {
        const at = error.linePos?.[0];
        const where = at === undefined ? '' : `line ${at.line}, column ${at.col}: `;
        return {
          path: '',
          message: `${where}YAML syntax error: ${error.message.split('\n')[0]}; fix: correct the YAML`,
        };
      }),
    );
  }
  const missing = interpolateEnv(doc.contents, env);
  if (missing.length > 0) {
    throw new ConfigError(
      file,
      missing.map((item) => ({
        path: item.path,
        message: `environment variable ${item.variable} is not set; fix: export ${item.variable}=… or write \${${item.variable}:-default}`,
      })),
    );
  }
  // Most derived file first: the first source holding a path is the one whose value won.
  sources.push({ file, doc, lineCounter });
  try {
    // `maxAliasCount` stops a "billion laughs" file (aliases of aliases) before it expands.
    return doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    throw new ConfigError(
      file,
      [
        {
          path: '',
          message: `${(error as Error).message}; fix: use fewer YAML aliases (*name) or write the values out`,
        },
      ],
      { cause: error },
    );
  }
}
