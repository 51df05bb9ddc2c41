import { z } from 'zod';
import { sha256 } from '../util/hash.js';
import { estimateTokens } from './token-estimate.js';
import type { ChatMessage } from './types.js';

/** How structured output is requested, from strongest to weakest. */
export type StructuredMode = 'json_schema' | 'json_object' | 'instructions';
export const STRUCTURED_MODES: readonly StructuredMode[] = ['json_schema', 'json_object', 'instructions'];

export interface SchemaInfo {
  jsonSchema: Record<string, unknown>;
  text: string;
  hash: string;
  /** Estimated prompt tokens the schema adds (budget and tokens/min checks). */
  tokens: number;
}

const memo = new WeakMap<z.ZodType, SchemaInfo>();

/**
 * JSON Schema of a zod schema (its input shape: what the model must write), memoised per schema
 * object so the hot path converts each schema once.
 *
 * @example schemaInfo(MySchema).hash // sha256 of the JSON Schema text, part of cache keys
 */
export function schemaInfo(schema: z.ZodType): SchemaInfo {
  let info = memo.get(schema);
  if (info === undefined) {
    const jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
      string,
      unknown
    >;
    delete jsonSchema.$schema;
    const text = JSON.stringify(jsonSchema);
    info = { jsonSchema, text, hash: sha256(text), tokens: estimateTokens(text) };
    memo.set(schema, info);
  }
  return info;
}

/** The system instruction added in `json_object` and `instructions` modes. */
export function schemaInstruction(info: SchemaInfo): ChatMessage {
  return {
    role: 'system',
    content: `Answer with one JSON value only (no prose, no code fences) that satisfies this JSON Schema:\n${info.text}`,
  };
}

/**
 * Parses JSON out of a model answer: the whole text, else a fenced ```json block, else the span
 * from the first `{`/`[` to the last `}`/`]`. Returns `undefined` when nothing parses.
 *
 * @example extractJson('Sure! ```json\n{"a":1}\n```') // { a: 1 }
 */
export function extractJson(text: string): { value: unknown } | undefined {
  const attempt = (candidate: string): { value: unknown } | undefined => {
    try {
      return { value: JSON.parse(candidate) };
    } catch {
      return undefined;
    }
  };
  const whole = attempt(text);
  if (whole !== undefined) return whole;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced?.[1] !== undefined) {
    const inner = attempt(fenced[1]);
    if (inner !== undefined) return inner;
  }
  const start = text.search(/[{[]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  return start >= 0 && end > start ? attempt(text.slice(start, end + 1)) : undefined;
}

/** One-line summary of zod issues, fed back to the model when it re-asks. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '<root>'}: ${issue.message}`)
    .join('; ');
}
