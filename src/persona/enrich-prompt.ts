import { z } from 'zod';
import type { ChatMessage } from '../llm/types.js';
import type { BigFive } from '../schemas/common.js';
import type { Persona } from '../schemas/persona.js';

/**
 * What the realizer returns when enriching a persona. Lenient on purpose (STYLE.md: model
 * output schemas accept nullish fields); the caller fills gaps from the offline profile.
 */
const Text = z.union([z.string(), z.number(), z.array(z.string())]).nullish();
// Every field optional (gaps are filled from the offline template), but an answer with none of
// them (e.g. `{"unexpected": …}`) is no answer: it fails the schema, so it is re-asked and never
// cached, and a rerun gets the model's profile, not the template.
export const EnrichmentAnswer = z
  .object({
    roleDescription: z.string().nullish(),
    human: z.record(z.string(), Text).nullish(),
    persona: z
      .object({ identity: z.string().nullish(), roles: Text, interactionStyle: z.string().nullish() })
      .passthrough()
      .nullish(),
  })
  .refine((answer) => (answer.roleDescription ?? answer.human ?? answer.persona) != null, {
    message: 'the answer has none of roleDescription, human, persona',
  });
export type EnrichmentAnswer = z.infer<typeof EnrichmentAnswer>;

/** The messages sent to the realizer: the persona and its drawn scores, and the JSON wanted. */
export function enrichmentMessages(persona: Persona, bigFive: BigFive): ChatMessage[] {
  const profile = {
    description: persona.description,
    name: persona.name,
    age: persona.age,
    gender: persona.gender,
    occupation: persona.occupation,
    location: `${persona.location.city}, ${persona.location.country} (${persona.location.regionTier})`,
    family: persona.family,
    lifeStage: persona.lifeStage,
    education: persona.education,
    interests: persona.interests,
  };
  return [
    {
      role: 'system',
      content:
        'You flesh out simulated users for a long-term personal-assistant dataset. Stay faithful to every given ' +
        'attribute, invent nothing that contradicts them, and keep each field short and concrete. Answer with JSON only.',
    },
    {
      role: 'user',
      content: [
        `Base persona:\n${JSON.stringify(profile, null, 2)}`,
        `Big Five scores (1 = very low, 5 = very high; fixed, do not change them):\n${JSON.stringify(bigFive)}`,
        'Return a JSON object with:',
        '- "roleDescription": 3-5 sentences in the third person describing who this user is, their daily life and how the Big Five scores show in their behaviour.',
        '- "human": facts the assistant knows about the user at the start, as short strings: "age", "gender", "occupation", "location", "family", "education", "interests", "preferences" (two or three likes or dislikes that fit the persona), "personality" (one sentence).',
        '- "persona": how the user wants the assistant to be: "identity" (who the assistant is to this user), "roles" (the jobs it does for them, comma-separated), "interactionStyle" (tone and format the user asked for, consistent with the scores).',
      ].join('\n'),
    },
  ];
}
