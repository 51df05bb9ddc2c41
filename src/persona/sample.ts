import { basename } from 'node:path';
import { InputError } from '../errors/index.js';
import type { Persona } from '../schemas/persona.js';
import type { PersonaFieldMapping, PersonasConfig } from '../schemas/personas-config.js';
import { createRng } from '../util/rng.js';
import { generateBuiltinPersonas } from './builtin.js';
import { personaFromRecord } from './from-record.js';
import { downloadHubFile } from './hub-source.js';
import { createNameRegistry } from './name-registry.js';
import { type RecordFormat, readRecords, type SourceRecord } from './records.js';

/** One sampled user: a stable id, its split and its base persona. */
export interface SampledUser {
  userId: string;
  split: 'train' | 'test';
  persona: Persona;
}

export interface SamplePersonasOptions {
  /** Run seed; same seed and same source → identical users. */
  seed: number;
  /** Hub cache directory; overrides `config.hub.cacheDir`. */
  cacheDir?: string;
  /** Injected fetch for the hub source. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Environment the hub token is read from. @default process.env */
  env?: Record<string, string | undefined>;
}

/** `train-00000`, `test-00012`: stable, sortable user ids. */
export function userIdFor(split: 'train' | 'test', index: number): string {
  return `${split}-${String(index).padStart(5, '0')}`;
}

/**
 * Reservoir sampling (Algorithm R): a uniform sample of `k` records without replacement in one
 * streaming pass, so a 200k-line PersonaHub file is never held whole. Returned in file order.
 */
async function reservoir(
  records: AsyncIterable<SourceRecord>,
  k: number,
  seed: number,
): Promise<{ kept: SourceRecord[]; seen: number }> {
  const rng = createRng(seed, 'personas', 'reservoir');
  const kept: SourceRecord[] = [];
  let seen = 0;
  for await (const item of records) {
    seen++;
    if (kept.length < k) kept.push(item);
    else {
      const slot = Math.floor(rng.next() * seen);
      if (slot < k) kept[slot] = item;
    }
  }
  kept.sort((a, b) => a.line - b.line);
  return { kept, seen };
}

async function sampleRecords(
  path: string,
  sourceName: string,
  source: 'file' | 'hub',
  format: RecordFormat,
  mapping: PersonaFieldMapping,
  limit: number,
  config: PersonasConfig,
  seed: number,
): Promise<Persona[]> {
  const wanted = config.train + config.test;
  const { kept, seen } = await reservoir(readRecords(path, format, limit), wanted, seed);
  if (seen < wanted) {
    throw new InputError(
      sourceName,
      `has ${seen} persona records but ${wanted} are needed (train ${config.train} + test ${config.test})`,
      {
        hint: 'lower personas.train / personas.test or use a larger file',
      },
    );
  }
  const names = createNameRegistry();
  // Names given by the file are reserved first, so drawn names never collide with them.
  if (mapping.name !== undefined) {
    for (const { record } of kept) {
      const value = record[mapping.name];
      if (typeof value === 'string' && value.trim() !== '') names.reserve(value.trim());
    }
  }
  const label = source === 'hub' ? sourceName : basename(sourceName);
  return kept.map(({ line, record }) =>
    personaFromRecord({
      record,
      line,
      sourceName,
      source,
      id: `${source}:${label}#L${line}`,
      mapping,
      builtin: config.builtin,
      names,
      rng: createRng(seed, 'personas', 'fill', label, line),
    }),
  );
}

async function collect(config: PersonasConfig, options: SamplePersonasOptions): Promise<Persona[]> {
  const wanted = config.train + config.test;
  if (config.source === 'builtin') return generateBuiltinPersonas(wanted, options.seed, config.builtin);
  if (config.source === 'file') {
    const file = config.file;
    if (file === undefined)
      throw new InputError('personas', 'source "file" needs a `file:` section', { field: 'file' });
    return sampleRecords(file.path, file.path, 'file', file.format, file.mapping, 0, config, options.seed);
  }
  const hub = config.hub;
  const path = await downloadHubFile(hub, options);
  // The cached snapshot keeps the repo's file name, so `auto` still sees the extension.
  return sampleRecords(
    path,
    `${hub.repo}/${hub.file}`,
    'hub',
    hub.format,
    hub.mapping,
    hub.maxRecords,
    config,
    options.seed,
  );
}

/**
 * Samples `config.train + config.test` personas without replacement from the configured source
 * (`builtin`, `file` or `hub`) and splits them into disjoint train and test users with stable
 * ids (`train-00000`…, `test-00000`…). Same seed and same input → identical users.
 *
 * @example
 * const users = await samplePersonas(PersonasConfig.parse({ train: 5, test: 2 }), { seed: 42 });
 * users[0]; // { userId: 'train-00000', split: 'train', persona: { name: 'Grace Turner', … } }
 */
export async function samplePersonas(
  config: PersonasConfig,
  options: SamplePersonasOptions,
): Promise<SampledUser[]> {
  const personas = await collect(config, options);
  // The split is a seeded shuffle, so neither split is biased towards the start of a file.
  const shuffled = createRng(options.seed, 'personas', 'split').shuffle(personas);
  return shuffled.map((persona, index) =>
    index < config.train
      ? { userId: userIdFor('train', index), split: 'train' as const, persona }
      : { userId: userIdFor('test', index - config.train), split: 'test' as const, persona },
  );
}
