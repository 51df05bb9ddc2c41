import { z } from 'zod';

/** The `validate:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const ValidateConfig = z.object({}).strict();
export type ValidateConfig = z.infer<typeof ValidateConfig>;
