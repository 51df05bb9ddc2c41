import { readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError } from '../../errors/index.js';
import { parseLocomoTime } from '../../interpolate/host-time.js';
import { interpolateIntoHost } from '../../interpolate/interpolate.js';
import { locomoSessionNumbers } from '../../interpolate/locomo.js';
import { interpolationTimes, placeSessions } from '../../interpolate/times.js';
import type { LlmClient } from '../../llm/types.js';
import type { ExportConfig } from '../../schemas/export-config.js';
import { SynthConfig, type SynthConfigInput } from '../../schemas/synth-config.js';
import { generateConceptConversation, sampleConceptGroup } from '../../synth/concepts/generate.js';
import type { ConceptConversation } from '../../synth/concepts/schema.js';
import { conceptConversationToSessions } from '../../synth/concepts/to-sessions.js';
import { writeJson } from '../../util/fs.js';
import { createRng } from '../../util/rng.js';
import { buildLocomoSample } from '../eval/locomo.js';
import { joinPath } from '../eval/persona-mme.js';
import type { ExportBundle } from '../read-run.js';
import { formatLocomoTime } from '../time-format.js';
import type { M2aSystemConfig } from './config.js';
import { injectVisualQa, locomoToM2a, type M2aSample, type M2aWarning } from './m2a-shape.js';

type Json = Record<string, unknown>;

/** What `report.json` says about one merged conversation. */
export interface M2aSampleReport {
  index: number;
  userId: string;
  /** `own-dialogue` or `<hostFile>#<record index>`. */
  host: string;
  /** Inserted after host session `position` (1-based, LoCoMo numbering). */
  position: number;
  inserted: number;
  /** τ_j = t_start + j/(N+1)·(t_end − t_start) (ISO), the inserted sessions' start times. */
  times: string[];
  hostSessions: number;
  mergedSessions: number;
  qaByCategory: Record<string, number>;
  droppedAdversarial: number;
  generator: string;
  offline: boolean;
  warnings: Array<M2aWarning | { path: string; value: string; kind: string; message: string }>;
}

export interface M2aExportOptions {
  system: M2aSystemConfig;
  export: ExportConfig;
  synth?: SynthConfigInput;
  seed: number;
  llm?: LlmClient;
}

/**
 * Reads a LoCoMo-format host file: a list of records or one record. Anything else is an `InputError`.
 *
 * @example const hosts = await readLocomoHost('data/locomo10.json'); // 10 records
 */
export async function readLocomoHost(path: string): Promise<Json[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(resolve(path), 'utf8'));
  } catch (error) {
    throw new InputError(path, `cannot read the M²A host file: ${(error as Error).message}`, {
      field: 'export.systems.m2a.hostFile',
      hint: 'point hostFile at a LoCoMo-format JSON file such as locomo10.json',
    });
  }
  const records = Array.isArray(parsed) ? parsed : [parsed];
  const ok = records.filter(
    (r): r is Json => r !== null && typeof r === 'object' && typeof (r as Json).conversation === 'object',
  );
  if (ok.length === 0 || ok.length !== records.length)
    throw new InputError(path, 'not a LoCoMo-format file (records need a "conversation" object)', {
      field: 'export.systems.m2a.hostFile',
    });
  return ok;
}

/** The user's own dialogue as a LoCoMo record with its LoCoMo QA (all sessions, no QA, when it has none). */
function ownHost(bundle: ExportBundle, config: ExportConfig): Json {
  const sample = buildLocomoSample(bundle, config) as Json | null;
  if (sample !== null && locomoSessionNumbers(sample).length >= 2) return sample;
  const images = new Map(bundle.plan.images.map((image) => [image.id, image]));
  const name = bundle.plan.enriched.persona.name;
  const conversation: Json = { speaker_a: name, speaker_b: 'Assistant' };
  bundle.dialogue.sessions.forEach((session, s) => {
    conversation[`session_${s + 1}_date_time`] = formatLocomoTime(session.start);
    conversation[`session_${s + 1}`] = session.turns.map((turn, t) => ({
      speaker: turn.speaker === 'user' ? name : 'Assistant',
      dia_id: `D${s + 1}:${t + 1}`,
      text: turn.text.replace(/<image>\s*/g, '').trim(),
      ...(turn.images.length === 0
        ? {}
        : {
            img_url: turn.images.map((id) => joinPath(config.imageRoot, images.get(id)?.path ?? id)),
            blip_caption: turn.images.map((id) => images.get(id)?.caption ?? '').join('; '),
          }),
    }));
  });
  return { sample_id: bundle.plan.userId, conversation, qa: [] };
}

/**
 * Host positions (1-based) between which `count` sessions of at most `maxDurationMs` fit with
 * the merged timeline strictly increasing; for the user's own dialogue τ_1 must also follow the
 * end of the session before (LoCoMo only records session starts).
 */
function feasiblePositions(
  record: Json,
  count: number,
  maxDurationMs: number,
  ends: number[] | null,
): number[] {
  const conversation = record.conversation as Json;
  const numbers = locomoSessionNumbers(record);
  const last = numbers[numbers.length - 1] ?? 0;
  const positions: number[] = [];
  for (let p = 1; p < last; p++) {
    const a = conversation[`session_${p}_date_time`];
    const b = conversation[`session_${p + 1}_date_time`];
    if (typeof a !== 'string' || typeof b !== 'string') continue;
    try {
      const tStart = parseLocomoTime(a);
      const tEnd = parseLocomoTime(b);
      placeSessions(tStart, tEnd, Array(count).fill(maxDurationMs), 60_000);
      const first = interpolationTimes(tStart, tEnd, count, 60_000)[0]!;
      if (ends !== null && !(first > (ends[p - 1] ?? Number.POSITIVE_INFINITY))) continue;
      positions.push(p);
    } catch {
      // Too small a gap (or unparsable times): not a candidate.
    }
  }
  return positions;
}

/**
 * One M²A sample for a user (SPEC.md §3): a concept group from the plan, N (5–6) sessions
 * generated for the fixed times τ_j of the chosen host gap (so temporal QA names the dates the
 * merged conversation shows), spliced in with `interpolateIntoHost`, then converted to M²A's
 * shape with remapped evidence, concept QA (6–9) and visual QA (5). Returns a reason instead
 * when the user cannot get one (too few concepts, no gap large enough).
 *
 * @example const result = await buildM2aSample(bundle, null, 0, options);
 */
export async function buildM2aSample(
  bundle: ExportBundle,
  host: { record: Json; label: string } | null,
  index: number,
  options: M2aExportOptions,
): Promise<
  { sample: M2aSample; report: M2aSampleReport; generated: ConceptConversation } | { skipped: string }
> {
  const { plan } = bundle;
  const synth = SynthConfig.parse(options.synth ?? {});
  const concepts = synth.concepts;
  const rng = createRng(options.seed, 'm2a', plan.userId);
  const usable = plan.concepts.filter((c) => c.imageIds.length > 0);
  if (usable.length < concepts.groupSize[0])
    return { skipped: `${usable.length} concepts with images; a group needs ${concepts.groupSize[0]}` };
  const record = host?.record ?? ownHost(bundle, options.export);
  const count = rng.int(concepts.sessions[0], concepts.sessions[1]);
  const maxDuration = (concepts.turnsPerSession[1] - 1) * concepts.turnGapMinutes * 60_000;
  const ends = host === null ? bundle.dialogue.sessions.map((s) => Date.parse(s.end)) : null;
  const feasible = feasiblePositions(record, count, maxDuration, ends);
  const position = options.system.position ?? (feasible.length === 0 ? undefined : rng.pick(feasible));
  if (position === undefined || !feasible.includes(position))
    return {
      skipped:
        position === undefined
          ? `no gap between host sessions fits ${count} concept sessions`
          : `position ${position} has no room for ${count} concept sessions (feasible: ${feasible.join(', ') || 'none'})`,
    };
  const conversation = record.conversation as Json;
  const tStart = parseLocomoTime(String(conversation[`session_${position}_date_time`]));
  const tEnd = parseLocomoTime(String(conversation[`session_${position + 1}_date_time`]));
  const times = interpolationTimes(tStart, tEnd, count, 60_000).map((t) => new Date(t).toISOString());
  const group = sampleConceptGroup(plan.concepts, rng.fork('group'), concepts, plan.userId);
  const generated = await generateConceptConversation({
    concepts: group,
    images: plan.images,
    times,
    seed: options.seed,
    userId: plan.userId,
    config: synth,
    ...(options.llm === undefined ? {} : { llm: options.llm }),
  });
  const insert = conceptConversationToSessions(generated, {
    userId: plan.userId,
    turnGapMinutes: concepts.turnGapMinutes,
  });
  const images = plan.images.map((image) => ({
    ...image,
    path: joinPath(options.export.imageRoot, image.path),
  }));
  const merged = interpolateIntoHost({
    host: record,
    format: 'locomo',
    sessions: { sessions: insert.sessions, images, qa: insert.qa },
    seed: options.seed,
    position,
  });
  const converted = locomoToM2a(merged.document as Json);
  const paths = new Map(images.map((image) => [image.id, image.path]));
  if (options.system.vqa)
    injectVisualQa(
      converted.sample,
      group.map((c) => ({
        name: c.name,
        objectClass: c.objectClass,
        paths: c.imageIds.map((id) => paths.get(id) ?? id),
      })),
    );
  const qaByCategory: Record<string, number> = {};
  for (const item of converted.sample.qa)
    qaByCategory[String(item.category)] = (qaByCategory[String(item.category)] ?? 0) + 1;
  return {
    sample: converted.sample,
    generated,
    report: {
      index,
      userId: plan.userId,
      host: host?.label ?? 'own-dialogue',
      position,
      inserted: merged.report.inserted,
      times: merged.report.times,
      hostSessions: merged.report.hostSessions,
      mergedSessions: merged.report.mergedSessions,
      qaByCategory,
      droppedAdversarial: converted.droppedAdversarial,
      generator: generated.generator,
      offline: generated.offline,
      warnings: [...merged.report.warnings, ...converted.warnings],
    },
  };
}

/** One user's M²A sample (or why it has none). */
export type M2aBuilt = Awaited<ReturnType<typeof buildM2aSample>>;

/** Builds each user's M²A sample with the host record the export gives it (`createM2aBuilder`). */
export interface M2aBuilder {
  build(bundle: ExportBundle): Promise<M2aBuilt>;
  /** Counts the user just built as exported: the next user gets the next host record. */
  keep(result: M2aBuilt): void;
}

/**
 * The M²A samples in export order: user i of those exported (skipped ones included) gets host
 * record i mod n, so validate (which builds and checks the samples before export, keeping only
 * the users it does not quarantine) and export give every user the same host.
 *
 * @example const builder = await createM2aBuilder(options); const r = await builder.build(bundle); builder.keep(r);
 */
export async function createM2aBuilder(options: M2aExportOptions): Promise<M2aBuilder> {
  const hostFile = options.system.hostFile;
  const hosts = hostFile === undefined ? null : await readLocomoHost(hostFile);
  let which = 0;
  let samples = 0;
  return {
    build(bundle) {
      const host =
        hosts === null
          ? null
          : { record: hosts[which % hosts.length]!, label: `${hostFile}#${which % hosts.length}` };
      return buildM2aSample(bundle, host, samples, options);
    },
    keep(result) {
      which++;
      if (!('skipped' in result)) samples++;
    },
  };
}

/**
 * Writes `<outDir>/merged.json` (a list of `{conversation, qa}` in M²A's output shape,
 * FORMATS.md §6), `<outDir>/intermediate/gen_XXXX.json` (each generated concept conversation,
 * as M²A keeps them) and `<outDir>/report.json` (per sample: user, host, position, τ_j, counts,
 * warnings; users skipped and why) for the given users, in order. Deterministic for a seed.
 *
 * @example await exportM2a(bundles, 'out/run/export/eval/m2a', { system, export: config, seed: 42 });
 */
export async function exportM2a(
  bundles: AsyncIterable<ExportBundle> | Iterable<ExportBundle>,
  outDir: string,
  options: M2aExportOptions,
): Promise<{ samples: number; questions: number; skipped: number }> {
  const hostFile = options.system.hostFile;
  const builder = await createM2aBuilder(options);
  // A re-run must not leave generations of users that are no longer exported.
  await rm(join(outDir, 'intermediate'), { recursive: true, force: true });
  const samples: M2aSample[] = [];
  const reports: M2aSampleReport[] = [];
  const skipped: Array<{ userId: string; reason: string }> = [];
  for await (const bundle of bundles) {
    const result = await builder.build(bundle);
    builder.keep(result);
    if ('skipped' in result) skipped.push({ userId: bundle.plan.userId, reason: result.skipped });
    else {
      // M²A keeps each generation call's output as output/intermediate/gen_XXXX.json.
      await writeJson(join(outDir, 'intermediate', `gen_${String(samples.length).padStart(4, '0')}.json`), {
        user_id: bundle.plan.userId,
        ...result.generated,
      });
      samples.push(result.sample);
      reports.push(result.report);
    }
  }
  await writeJson(join(outDir, 'merged.json'), samples);
  await writeJson(join(outDir, 'report.json'), {
    format: 'm2a',
    host: hostFile ?? 'own-dialogue',
    offline: reports.every((r) => r.offline),
    samples: reports,
    skipped,
  });
  return {
    samples: samples.length,
    questions: samples.reduce((n, s) => n + s.qa.length, 0),
    skipped: skipped.length,
  };
}
