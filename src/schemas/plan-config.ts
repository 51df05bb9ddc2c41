import { z } from 'zod';

/** The `plan:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const PlanConfig = z.object({}).strict();
export type PlanConfig = z.infer<typeof PlanConfig>;
