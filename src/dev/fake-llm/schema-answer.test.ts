import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerForSchema } from './schema-answer.js';

describe('answerForSchema', () => {
  it.each([
    [
      'bounded numbers and enums',
      z.object({ n: z.int().min(3).max(9), x: z.number().gt(0).lt(1), e: z.enum(['b', 'c']) }),
    ],
    [
      'strings with lengths and formats',
      z.object({ s: z.string().min(40).max(50), t: z.string().max(3), d: z.iso.datetime(), m: z.email() }),
    ],
    [
      'arrays with item counts',
      z.object({
        list: z
          .array(z.object({ id: z.string() }))
          .min(2)
          .max(4),
        tags: z.array(z.string()).max(0),
      }),
    ],
    [
      'optional, nullable and unions',
      z.object({
        o: z.string().optional(),
        n: z.number().nullable(),
        u: z.union([z.literal('x'), z.number()]),
      }),
    ],
    [
      'nested records and tuples',
      z.object({ r: z.record(z.string(), z.number()), t: z.tuple([z.string(), z.number()]) }),
    ],
  ])('satisfies %s', (_, schema) => {
    const jsonSchema = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
    expect(schema.safeParse(answerForSchema(jsonSchema)).success).toBe(true);
  });
});
