import { z } from 'zod';

/** The `synth:` section of a pipeline file. Every default here is a documented domain number (SPEC.md). */
export const SynthConfig = z.object({}).strict();
export type SynthConfig = z.infer<typeof SynthConfig>;
