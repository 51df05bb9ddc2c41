import type { LlmClient } from '../llm/types.js';
import type { BigFive } from '../schemas/common.js';
import { type CoreMemory, EnrichedPersona, type Persona } from '../schemas/persona.js';
import type { PersonasConfig } from '../schemas/personas-config.js';
import type { Rng } from '../util/rng.js';
import { describeBigFive, drawBigFive, interactionStyleFor } from './big-five.js';
import { stripPersonaControls } from './clean-text.js';
import { EnrichmentAnswer, enrichmentMessages } from './enrich-prompt.js';

export interface EnrichPersonaOptions {
  llm: LlmClient;
  /** The user's stream; Big Five scores are drawn from `rng.fork('big-five')`. */
  rng: Rng;
  config: PersonasConfig;
}

function listText(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The deterministic profile the offline backend answers with (and fills model gaps from). */
export interface OfflineEnrichment {
  roleDescription: string;
  human: Record<string, string>;
  persona: { identity: string; roles: string; interactionStyle: string };
}

export function offlineEnrichment(persona: Persona, bigFive: BigFive): OfflineEnrichment {
  const traits = describeBigFive(bigFive);
  const where = `${persona.location.city}, ${persona.location.country}`;
  const roleDescription = [
    `${persona.name} is a ${persona.age}-year-old ${persona.occupation} living in ${where} (${persona.family}).`,
    traits.length > 0
      ? `${sentence(persona.name)} is ${listText(traits)}.`
      : `${persona.name} has a balanced, even temperament.`,
    persona.interests.length > 0 ? `In free time ${persona.name} enjoys ${listText(persona.interests)}.` : '',
    `Current life stage: ${persona.lifeStage}; education: ${persona.education}.`,
  ]
    .filter((part) => part !== '')
    .join(' ');
  const roles = ['daily planner', 'reminder keeper'];
  const first = persona.interests[0];
  if (first !== undefined) roles.push(`companion for ${first}`);
  // "work as a retired fisherman" is a template, not a role: retirees and students get their own.
  if (/^retired\b/i.test(persona.occupation)) roles.push('sounding board for life in retirement');
  else if (/\bstudent\b/i.test(persona.occupation)) roles.push('study companion');
  else
    roles.push(
      `sounding board for work as ${/^[aeiou]/i.test(persona.occupation) ? 'an' : 'a'} ${persona.occupation}`,
    );
  return {
    roleDescription,
    human: {
      age: String(persona.age),
      gender: persona.gender,
      occupation: persona.occupation,
      location: where,
      family: persona.family,
      education: persona.education,
      interests: persona.interests.join(', '),
      personality: traits.length > 0 ? sentence(listText(traits)) : 'Balanced temperament',
    },
    persona: {
      identity: `${persona.name}'s personal assistant, who remembers their life, plans and preferences over time`,
      roles: roles.join(', '),
      interactionStyle: interactionStyleFor(bigFive),
    },
  };
}

function asText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = stripPersonaControls(Array.isArray(value) ? value.map(String).join(', ') : String(value));
  return text === '' ? undefined : text;
}

/** Core memory from an answer: the persona's own attributes always win over the model's wording. */
function toCoreMemory(persona: Persona, answer: EnrichmentAnswer, fallback: OfflineEnrichment): CoreMemory {
  const human: Record<string, string> = {};
  for (const [key, value] of Object.entries(answer.human ?? {})) {
    const text = asText(value);
    if (text !== undefined && key !== 'name') human[key] = text;
  }
  for (const [key, value] of Object.entries(fallback.human)) {
    const text = asText(value);
    if (text !== undefined && human[key] === undefined) human[key] = text;
  }
  // Structured attributes are ground truth for later QA; the model may not rewrite them.
  Object.assign(human, {
    age: String(persona.age),
    gender: persona.gender,
    occupation: persona.occupation,
  });
  const personaBlock = {
    identity: asText(answer.persona?.identity) ?? fallback.persona.identity,
    roles: asText(answer.persona?.roles) ?? fallback.persona.roles,
    interactionStyle: asText(answer.persona?.interactionStyle) ?? fallback.persona.interactionStyle,
  };
  return { human: { name: persona.name, ...human }, persona: personaBlock };
}

/**
 * Enriches a base persona (PersonaVLM, SPEC.md §1): integer Big Five scores drawn from the
 * configured distribution, a role description, and the initial core memory (human block with
 * the mandatory name, age, gender, interests…; persona block with identity, roles and the
 * requested interaction style). The text comes from the `realizer` role; with no endpoint the
 * offline backend answers with a deterministic template and `enrichedBy` is `offline`.
 *
 * @example
 * const enriched = await enrichPersona(user.persona, { llm, rng: createRng(seed, user.userId), config });
 */
export async function enrichPersona(
  persona: Persona,
  options: EnrichPersonaOptions,
): Promise<EnrichedPersona> {
  const { llm, rng, config } = options;
  const settings = config.enrichment;
  const bigFive = drawBigFive(rng.fork('big-five'), config.bigFive);
  const fallback = offlineEnrichment(persona, bigFive);
  const offline = llm.isOffline(settings.role);
  const answer = await llm.structured(settings.role, {
    messages: enrichmentMessages(persona, bigFive),
    schema: EnrichmentAnswer,
    schemaName: 'persona_enrichment',
    offline: () => fallback,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    seed: rng.fork('llm-seed').int(0, 2_147_483_647),
    stage: 'plan',
  });
  return EnrichedPersona.parse({
    persona,
    bigFive,
    roleDescription: asText(answer.roleDescription) ?? fallback.roleDescription,
    coreMemory: toCoreMemory(persona, answer, fallback),
    enrichedBy: offline ? 'offline' : 'llm',
  });
}
