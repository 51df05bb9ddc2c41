import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { RecipeError } from '../errors/index.js';

/** Which `swift` subcommands persona-forge emits. */
export type SwiftSubcommand = 'sft' | 'rlhf' | 'export' | 'rollout';
/** ms-swift major version. */
export type SwiftMajor = 3 | 4;

const NameLists = z.object({ '3': z.array(z.string()), '4': z.array(z.string()) });
const ArgNamesFile = z.object({
  source: z
    .object({ repo: z.string(), commit: z.string().regex(/^[0-9a-f]{40}$/), version: z.string() })
    .passthrough(),
  subcommands: z.object({ sft: NameLists, rlhf: NameLists, export: NameLists, rollout: NameLists }),
  inherited: NameLists,
  removedOrRenamed: z.record(z.string(), z.string()).default({}),
});
export type ArgNamesFile = z.infer<typeof ArgNamesFile>;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The project data file holding ms-swift's argument names (copied with its source commit). */
export const ARG_NAMES_FILE = path.join(repoRoot, 'data/ms-swift/arguments.json');

let cached: ArgNamesFile | undefined;

/**
 * The argument-name lists, validated once.
 *
 * @example
 * loadArgNames().source.commit; // '3602360a…'
 */
export function loadArgNames(file: string = ARG_NAMES_FILE): ArgNamesFile {
  if (file === ARG_NAMES_FILE && cached !== undefined) return cached;
  const parsed = ArgNamesFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  if (file === ARG_NAMES_FILE) cached = parsed;
  return parsed;
}

/**
 * Every flag name (without `--`) `swift <subcommand>` accepts on that major version: the
 * ms-swift dataclass fields plus the transformers TrainingArguments fields the CLI inherits.
 *
 * @example
 * allowedArgs('rlhf', 4).has('num_generations'); // true
 */
export function allowedArgs(subcommand: SwiftSubcommand, major: SwiftMajor): ReadonlySet<string> {
  const data = loadArgNames();
  const own = data.subcommands[subcommand][String(major) as '3' | '4'];
  const inherited =
    subcommand === 'export' || subcommand === 'rollout' ? [] : data.inherited[String(major) as '3' | '4'];
  return new Set([...own, ...inherited]);
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      const left = prev[j - 1] ?? 0;
      prev[j] = Math.min(up + 1, left + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

/**
 * The real argument name nearest to `name` (edit distance, ties broken alphabetically).
 *
 * @example
 * closestArg('num_generation', allowedArgs('rlhf', 4)); // 'num_generations'
 */
export function closestArg(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of [...names].sort()) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Throws `RecipeError` for the first flag `swift <subcommand>` would reject (`remaining_argv`),
 * naming it and the closest real name.
 *
 * @example
 * assertKnownArgs(['model', 'dataset'], 'sft', 4);
 */
export function assertKnownArgs(
  names: Iterable<string>,
  subcommand: SwiftSubcommand,
  major: SwiftMajor,
): void {
  const allowed = allowedArgs(subcommand, major);
  for (const name of names) {
    if (allowed.has(name)) continue;
    const near = closestArg(name, allowed);
    const data = loadArgNames();
    const history = data.removedOrRenamed[name];
    throw new RecipeError(
      `--${name} is not an argument of \`swift ${subcommand}\` in ms-swift ${major}.x (source ${data.source.repo}@${data.source.commit.slice(0, 8)})${history === undefined ? '' : `; ${history}`}`,
      {
        hint: near === undefined ? 'remove it' : `did you mean --${near}?`,
        flag: name,
        ...(near === undefined ? {} : { closest: near }),
      },
    );
  }
}
