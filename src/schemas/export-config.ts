import { z } from 'zod';

/** The `export:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const ExportConfig = z.object({}).strict();
export type ExportConfig = z.infer<typeof ExportConfig>;
