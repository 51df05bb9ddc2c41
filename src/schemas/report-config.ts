import { z } from 'zod';

/** The `report:` section of a pipeline file. */
export const ReportConfig = z
  .object({
    /** Users that get their own timeline and personality chart (all users feed the distributions). @default 8 */
    maxUsers: z.number().int().min(1).max(200).default(8),
  })
  .strict();
export type ReportConfig = z.infer<typeof ReportConfig>;
