import { z } from 'zod';

/** The `personas:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const PersonasConfig = z.object({}).strict();
export type PersonasConfig = z.infer<typeof PersonasConfig>;
