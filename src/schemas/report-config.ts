import { z } from 'zod';

/** The `report:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const ReportConfig = z.object({}).strict();
export type ReportConfig = z.infer<typeof ReportConfig>;
