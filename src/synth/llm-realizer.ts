import { z } from 'zod';
import type { ChatMessage, LlmClient } from '../llm/types.js';
import { spokenStatement } from '../plan/image-slots.js';
import type { BigFive } from '../schemas/common.js';
import type { ImageRef } from '../schemas/plan.js';
import { createRng } from '../util/rng.js';
import type { ChunkRequest, RealizedRound, Realizer } from './realizer.js';
import { slipOf } from './slips.js';

/** What the realizer model returns for one chunk (lenient: only the fields we read). */
export const ChunkOutput = z.object({
  turns: z.array(z.object({ round: z.number().int(), user: z.string(), assistant: z.string() })),
});
export type ChunkOutput = z.infer<typeof ChunkOutput>;

export interface LlmRealizerOptions {
  llm: LlmClient;
  /** Sampling temperature. @default 0.8 */
  temperature?: number;
  /** Words of an assistant reply the prompt asks for (`synth.replyWords`). @default 40 */
  replyWords?: number;
  /** Stage billed for the calls. @default 'synth' */
  stage?: string;
  /** Run seed: each call sends a `seed` derived from it, the user, session, chunk and attempt. */
  seed?: number;
  /** Aborts in-flight calls (the stage context's signal). */
  signal?: AbortSignal;
  /**
   * Answer used when the `realizer` role is served offline (the offline realizer's output), so
   * the client can run without a model.
   */
  offline?: (request: ChunkRequest) => Promise<RealizedRound[]>;
}

const TRAIT_WORDS: Readonly<Record<keyof BigFive, readonly [string, string]>> = {
  openness: ['conventional, prefers the familiar', 'curious, loves new ideas'],
  conscientiousness: ['spontaneous, loosely organised', 'organised, plans ahead'],
  extraversion: ['reserved, brief', 'outgoing, enthusiastic, uses exclamations'],
  agreeableness: ['blunt, impatient, direct', 'warm, polite, thankful'],
  neuroticism: ['calm, unbothered', 'anxious, worries aloud'],
};

function describePersonality(bigFive: BigFive): string {
  return (Object.keys(TRAIT_WORDS) as Array<keyof BigFive>)
    .map((trait) => {
      const score = bigFive[trait];
      const words = TRAIT_WORDS[trait];
      const note = score >= 4 ? ` (${words[1]})` : score <= 2 ? ` (${words[0]})` : '';
      return `${trait} ${score.toFixed(1)}${note}`;
    })
    .join('; ');
}

/** The realizer's system prompt: fixed for a run (a cacheable prefix), with the reply length it asks for. */
const systemPrompt = (replyWords: number) =>
  [
    'You write realistic chat logs between a user and their long-term personal assistant.',
    `Each assistant reply is about ${replyWords} words, in whole sentences.`,
    "Write every listed round: the user message in the user's own voice (their Big Five personality shapes tone and content), then a helpful, personalized assistant reply that uses what the assistant already knows about the user.",
    'When a round lists facts to express, the user message must state each fact naturally and contain every listed keyword verbatim.',
    'When a round has images, the user message contains exactly one "<image>" placeholder per image and talks about it; never put "<image>" in assistant replies.',
    'A photo message names the photo and its subject, never what the image shows (no colours, counts or other objects): questions about the photo must need the image; the assistant does not describe it either.',
    'Noise rounds are realistic distractions of the given kind (irrelevant question, exploratory browsing, request on behalf of someone else, short-lived impulse, a misstatement of one practical detail, or the correction of that misstatement). A correction fixes only the detail it names, never a preference or other fact the user holds.',
    'Never mention that this is synthetic. Return JSON {"turns": [{"round": n, "user": "...", "assistant": "..."}]} with one entry per round, in order.',
  ].join('\n');

/**
 * Renders the compact chunk prompt: profile, current personality, relevant preferences,
 * running summary, the last few turns and the rounds to write — never the whole history, so
 * the prompt stays the same size at turn 40 and turn 400 (bench/synth-tokens.ts).
 *
 * @example const messages = buildChunkPrompt(request);
 */
export function buildChunkPrompt(request: ChunkRequest, replyWords = 40): ChatMessage[] {
  const { state, session, rounds, view } = request;
  const lines: string[] = [];
  lines.push(`USER PROFILE: ${state.profile}`);
  lines.push(`PERSONALITY NOW (Big Five, 1-5): ${describePersonality(state.personality)}`);
  if (state.preferences.length > 0) {
    lines.push('CURRENT PREFERENCES:');
    for (const pref of state.preferences) {
      const condition = pref.condition === null ? '' : ` [only ${pref.condition.when}]`;
      const knownMark = state.known.some((k) => k.id === pref.id) ? ' (assistant knows)' : '';
      lines.push(`- ${pref.polarity} ${pref.item}${condition}${knownMark}`);
    }
  }
  lines.push(`SESSION ${session.index} TOPICS: ${session.topics.join(', ')}`);
  if (state.summary.length > 0) lines.push(`SO FAR IN THIS SESSION: ${state.summary.join(' | ')}`);
  if (state.recent.length > 0) {
    lines.push('LAST TURNS:');
    for (const turn of state.recent) lines.push(`${turn.speaker}: ${turn.text}`);
  }
  lines.push('WRITE THESE ROUNDS:');
  for (const round of rounds) {
    const parts = [
      `round ${round.round} at ${new Date(round.time).toISOString().slice(0, 16).replace('T', ' ')}`,
    ];
    for (const slot of round.slots) {
      const statement = spokenStatement(slot);
      parts.push(`express: "${statement}" keywords: ${slot.keywords.map((k) => `"${k}"`).join(', ')}`);
    }
    for (const imageId of round.images) {
      // The model is told the photo's subject only, never its caption: colours and counts it does
      // not know cannot leak into the user's words (a visual question must need the image).
      const image = view.plan.images.find((i) => i.id === imageId);
      parts.push(`image: ${image === undefined ? imageId : photoSubject(image)}`);
    }
    if (round.noise !== null) {
      const slip = slipOf(view.plan, request.session.index, round.round);
      const said =
        slip === null
          ? ''
          : round.noise === 'misstatement'
            ? ` (says ${slip.detail} is ${slip.wrong} by mistake)`
            : ` (${slip.detail} is ${slip.right}, not ${slip.wrong} as said in round ${slip.slipRound})`;
      parts.push(`noise: ${round.noise}${said}`);
    }
    if (round.slots.length === 0 && round.noise === null && round.images.length === 0)
      parts.push('free chat on the topics');
    lines.push(`- ${parts.join('; ')}`);
  }
  if (request.missing.length > 0 || (request.hints?.length ?? 0) > 0) {
    // The meaning missed, in words: a model told only "include these keywords" repeats them
    // in a sentence that still says the wrong thing.
    const hints =
      request.hints !== undefined && request.hints.length > 0
        ? request.hints
        : request.missing.map((slot) => `round ${slot.round} must say ${slot.statement}`);
    lines.push(
      `ATTEMPT ${request.attempt + 1}: THE PREVIOUS ATTEMPT GOT THESE WRONG, FIX THEM: ${hints.join('; ')}. Say each in the user's own words; name the item.`,
    );
  }
  return [
    { role: 'system', content: systemPrompt(replyWords) },
    { role: 'user', content: lines.join('\n') },
  ];
}

/**
 * The LLM realizer: one `llm.structured('realizer', …)` call per chunk with the compact prompt.
 * Slot checks and regeneration are done by `realizeDialogue`.
 *
 * @example
 * const realizer = createLlmRealizer({ llm });
 * await realizeDialogue(plan, { realizer, llm });
 */
export function createLlmRealizer(options: LlmRealizerOptions): Realizer {
  const { llm } = options;
  return {
    name: llm.modelFor('realizer'),
    offline: llm.isOffline('realizer'),
    async realizeChunk(request) {
      // The offline answer backs the offline backend and `persona-forge estimate`, which walks the
      // model path without sending anything; a real endpoint never sees it.
      const offlineAnswer = options.offline === undefined ? undefined : await options.offline(request);
      const output = await llm.structured('realizer', {
        schema: ChunkOutput,
        schemaName: 'dialogue_chunk',
        messages: buildChunkPrompt(request, options.replyWords),
        temperature: options.temperature ?? 0.8,
        stage: options.stage ?? 'synth',
        // A regeneration must not be served the same cached answer.
        noCache: request.attempt > 0,
        ...(options.seed === undefined
          ? {}
          : {
              seed: createRng(
                options.seed,
                request.view.plan.userId,
                'realizer',
                request.session.index,
                request.chunkIndex,
                request.attempt,
              ).int(0, 2_147_483_647),
            }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(offlineAnswer === undefined ? {} : { offline: () => ({ turns: offlineAnswer }) }),
      });
      return output.turns;
    },
  };
}

/** What a photo is of, without what it shows: a concept photo's `<Name> (kind)`, else its objects' names. */
export function photoSubject(image: ImageRef): string {
  const concept = /^(<[^>]+>(?: \([^)]*\))?):/.exec(image.caption)?.[1];
  if (concept !== undefined) return `a photo of ${concept}`;
  const names = [...new Set(image.objects.map((object) => object.name))];
  return names.length === 0 ? 'a photo' : `a photo of the ${names.join(' and the ')}`;
}
