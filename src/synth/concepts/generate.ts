import { SynthError } from '../../errors/index.js';
import type { ChatMessage, LlmClient } from '../../llm/types.js';
import type { ImageRef, UserPlan, VisualConcept } from '../../schemas/plan.js';
import { SynthConfig, type SynthConfigInput } from '../../schemas/synth-config.js';
import { createRng, type Rng } from '../../util/rng.js';
import { generateConceptsOffline } from './offline.js';
import { type ConceptConversation, ConceptGeneration, type ConceptMember } from './schema.js';
import { expectedQaCounts, validateConceptGeneration } from './validate.js';

/**
 * Samples an M²A concept group: `groupSize` concepts, each with `imagesPerConcept` of its
 * images (all of them when it has fewer). Throws `SynthError` when the pool is too small.
 *
 * @example sampleConceptGroup(plan.concepts, rng, config.concepts)
 */
export function sampleConceptGroup(
  concepts: readonly VisualConcept[],
  rng: Rng,
  config: SynthConfig['concepts'],
  userId = 'concepts',
): ConceptMember[] {
  const usable = concepts.filter((c) => c.imageIds.length > 0);
  const [min, max] = config.groupSize;
  if (usable.length < min) {
    throw new SynthError(
      userId,
      'concepts_insufficient',
      `a concept group needs ${min} concepts with images, the pool has ${usable.length}`,
      { hint: 'add visual concepts (with images) to the plan or lower synth.concepts.groupSize' },
    );
  }
  const size = Math.min(usable.length, rng.int(min, max));
  return rng.sample(usable, size).map((c) => ({
    id: c.id,
    name: c.name,
    kind: c.kind,
    objectClass: c.objectClass,
    description: c.description,
    imageIds: rng.sample(
      c.imageIds,
      Math.max(1, rng.int(config.imagesPerConcept[0], config.imagesPerConcept[1])),
    ),
  }));
}

export interface GenerateConceptOptions {
  concepts: ConceptMember[];
  /** Image pool entries for the group's image ids (captions go into prompts and offline text). */
  images: readonly ImageRef[];
  /** Fixed session timestamps (ISO); their count is the session count (M²A: 5–6). */
  times: string[];
  seed: number;
  /** Without a client, or with the `realizer` role offline, the offline generator is used. */
  llm?: LlmClient;
  config?: SynthConfigInput;
  /** For error messages and rng keys. @default 'concepts' */
  userId?: string;
}

function prompt(
  options: GenerateConceptOptions,
  config: SynthConfig['concepts'],
  images: ReadonlyMap<string, ImageRef>,
  rejected: string[],
): ChatMessage[] {
  const counts = expectedQaCounts(config);
  const lines = [
    'CONCEPT_GROUP (write each name in angle brackets exactly as given):',
    ...options.concepts.map(
      (c) =>
        `- <${c.name}>: ${c.kind} (${c.objectClass}), ${c.description}; images: ${c.imageIds.map((id) => `${id} = ${images.get(id)?.caption ?? 'photo'}`).join('; ')}`,
    ),
    'FIXED TIMESTAMPS (strictly adhere; copy each into date_time verbatim):',
    ...options.times.map((time, s) => `- session ${s}: ${time}`),
    `Write ${options.times.length} sessions of ${config.turnsPerSession[0]}-${config.turnsPerSession[1]} turns between the user (speaker 0) and their assistant (speaker 1). Turn ids are dia_id "S<session>:<turn>", both from 0. The very first message names every concept in angle brackets. Show an image via "images": [id]; text never contains image ids.`,
    `Show photos in ${Math.round(config.imagesPerConversation)} user turns in all: every image at least once, then show images again in later turns. Never repeat a turn's text.`,
    `Then write exactly ${config.qaTotal} QA items about the conversation: ${counts[6]} multi-hop (category 6), ${counts[7]} temporal (category 7), ${counts[8]} open-domain (category 8), ${counts[9]} single-hop (category 9); evidence = the dia_ids that support the answer. Ask each question once. A question or answer that names a session says "session k" for the session whose dia_ids are S<k>:…, and only a session holding its evidence.`,
    'Output ONE JSON object with keys "sessions" ([{date_time, turns: [{speaker, dia_id, images, text}]}]) and "qa" ([{question, answer, evidence, category}]).',
  ];
  if (rejected.length > 0)
    lines.push(`YOUR PREVIOUS ANSWER WAS REJECTED: ${rejected.slice(0, 12).join('; ')}. Fix these.`);
  return [
    {
      role: 'system',
      content:
        "You write realistic multimodal conversations about a user's personal concepts (pets, objects, people, places) for a memory benchmark.",
    },
    { role: 'user', content: lines.join('\n') },
  ];
}

/**
 * M²A-style concept sessions (SPEC.md §3, FORMATS.md §6): one generation call yields all
 * sessions plus QA in the 2:3:1:4 multi-hop : temporal : open-domain : single-hop mix; the result
 * is validated (session count, exact timestamps, dia_ids, `<Name>` mentions, category mix,
 * evidence) and the call retried with the problems up to `maxAttempts`, then a `SynthError`
 * (`concepts_invalid`). Offline, a template generator produces the same shape.
 *
 * @example
 * const conversation = await generateConceptConversation({ concepts, images, times, seed: 42, llm });
 */
export async function generateConceptConversation(
  options: GenerateConceptOptions,
): Promise<ConceptConversation> {
  const config = SynthConfig.parse(options.config ?? {}).concepts;
  const userId = options.userId ?? 'concepts';
  const mixSum =
    config.qaMix.multiHop + config.qaMix.temporal + config.qaMix.openDomain + config.qaMix.singleHop;
  if (mixSum === 0 || config.qaTotal % mixSum !== 0) {
    throw new SynthError(
      userId,
      'concepts_config',
      `synth.concepts.qaTotal (${config.qaTotal}) must be a multiple of the QA mix total (${mixSum})`,
    );
  }
  const images = new Map(options.images.map((image) => [image.id, image]));
  const expected = { concepts: options.concepts, times: options.times, config };
  const offline = options.llm === undefined || options.llm.isOffline('realizer');
  let rejected: string[] = [];
  for (let attempt = 1; attempt <= config.maxAttempts; attempt++) {
    let output: ConceptGeneration;
    if (offline) {
      output = generateConceptsOffline(
        options.concepts,
        options.times,
        config,
        images,
        createRng(options.seed, userId, 'concepts', attempt),
      );
    } else {
      try {
        output = await options.llm!.structured('realizer', {
          schema: ConceptGeneration,
          schemaName: 'concept_sessions',
          messages: prompt(options, config, images, rejected),
          temperature: 0,
          stage: 'synth',
          noCache: attempt > 1,
        });
      } catch (error) {
        rejected = [`no valid JSON: ${(error as Error).message}`];
        continue;
      }
    }
    rejected = validateConceptGeneration(output, expected);
    if (rejected.length === 0) {
      const generator = offline ? 'offline' : options.llm!.modelFor('realizer');
      return { ...output, concepts: options.concepts, generator, offline, attempts: attempt };
    }
  }
  throw new SynthError(
    userId,
    'concepts_invalid',
    `concept sessions failed validation after ${config.maxAttempts} attempts: ${rejected.slice(0, 5).join('; ')}`,
    { details: rejected },
  );
}

/**
 * Concept sessions for one plan: a group sampled from the plan's visual concepts, 5–6 session
 * times spread evenly over the plan's horizon (minute resolution), then
 * `generateConceptConversation`. The result can be spliced into a host with
 * `conceptConversationToSessions` + `interpolateIntoHost` (which re-times the sessions).
 *
 * @example const conversation = await conceptConversationForPlan(plan, { seed: 42, llm });
 */
export async function conceptConversationForPlan(
  plan: UserPlan,
  options: { seed: number; llm?: LlmClient; config?: SynthConfigInput },
): Promise<ConceptConversation> {
  const config = SynthConfig.parse(options.config ?? {}).concepts;
  const rng = createRng(options.seed, plan.userId, 'concept-group');
  const concepts = sampleConceptGroup(plan.concepts, rng, config, plan.userId);
  const count = rng.int(config.sessions[0], config.sessions[1]);
  const start = Date.parse(plan.horizon.start);
  const span = Date.parse(plan.horizon.end) - start;
  const times = Array.from({ length: count }, (_, j) =>
    new Date(Math.floor((start + ((j + 1) / (count + 1)) * span) / 60_000) * 60_000).toISOString(),
  );
  return generateConceptConversation({
    concepts,
    images: plan.images,
    times,
    seed: options.seed,
    userId: plan.userId,
    ...(options.llm === undefined ? {} : { llm: options.llm }),
    ...(options.config === undefined ? {} : { config: options.config }),
  });
}
