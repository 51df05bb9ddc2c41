import { z } from 'zod';

/** The `memory:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const MemoryConfig = z.object({}).strict();
export type MemoryConfig = z.infer<typeof MemoryConfig>;
