import { z } from 'zod';
import { BigFive } from './common.js';

/** Region tiers as VitaBench profiles use them (tier-1 megacity … rural). */
export const RegionTier = z.enum(['tier1', 'tier2', 'tier3', 'rural']);

/** A base persona: a PersonaHub-style one-liner plus structured attributes (some may be unknown for file/hub sources). */
export const Persona = z
  .object({
    id: z.string(),
    source: z.enum(['builtin', 'file', 'hub']),
    description: z.string().min(1),
    name: z.string().min(1),
    age: z.number().int().min(14).max(100),
    gender: z.string(),
    occupation: z.string(),
    location: z.object({ city: z.string(), country: z.string(), regionTier: RegionTier }).strict(),
    family: z.string(),
    lifeStage: z.string(),
    education: z.string(),
    interests: z.array(z.string()),
  })
  .strict();
export type Persona = z.infer<typeof Persona>;

/** PersonaVLM core memory: the human block (name mandatory) and the persona block. */
export const CoreMemory = z
  .object({
    human: z.object({ name: z.string().min(1) }).catchall(z.string()),
    persona: z
      .object({ identity: z.string(), roles: z.string(), interactionStyle: z.string() })
      .catchall(z.string()),
  })
  .strict();
export type CoreMemory = z.infer<typeof CoreMemory>;

/** A persona enriched with Big Five scores, a role description and the initial core memory. */
export const EnrichedPersona = z
  .object({
    persona: Persona,
    bigFive: BigFive,
    roleDescription: z.string(),
    coreMemory: CoreMemory,
    enrichedBy: z.enum(['offline', 'llm']),
  })
  .strict();
export type EnrichedPersona = z.infer<typeof EnrichedPersona>;
