import type { z } from 'zod';
import type { ConfigIssue } from '../errors/index.js';
import { closestKey } from './closest-key.js';

interface ZodDefLike {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  element?: unknown;
  valueType?: unknown;
  options?: unknown[];
  getter?: () => unknown;
}

/**
 * Turns zod issues into `ConfigIssue`s that name the YAML path, the offending value and a fix:
 * the allowed range or values, the expected type, or — for an unknown key — the closest valid key.
 *
 * @example toConfigIssues(result.error.issues, raw, PipelineConfig)
 */
export function toConfigIssues(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  schema: z.ZodType,
): ConfigIssue[] {
  const out: ConfigIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      const valid = objectKeysAt(schema, path);
      for (const key of issue.keys) {
        const near = closestKey(key, valid);
        const fix =
          near === undefined ? `remove it; valid keys here: ${valid.join(', ')}` : `did you mean "${near}"?`;
        out.push({
          path: [...path, key].join('.'),
          message: `unknown key: ${fix}`,
          value: valueAt(raw, [...path, key]),
        });
      }
      continue;
    }
    const value = valueAt(raw, path);
    const issueOut: ConfigIssue = { path: path.join('.'), message: `${issue.message}${hintFor(issue)}` };
    if (value !== undefined) issueOut.value = value;
    out.push(issueOut);
  }
  return out;
}

function hintFor(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return `; fix: use a value ${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}`;
    case 'too_big':
      return `; fix: use a value ${issue.inclusive === false ? '<' : '<='} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `; fix: use one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_type':
      return issue.input === undefined
        ? `; fix: add this required key (${issue.expected})`
        : `; fix: write a ${issue.expected}`;
    case 'invalid_format':
      return `; fix: write a valid ${issue.format}`;
    default:
      return '';
  }
}

/** The value at a path in the raw (pre-validation) config, or undefined. */
export function valueAt(raw: unknown, path: readonly string[]): unknown {
  let current = raw;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Keys of the object schema found at `path` (records and arrays are stepped through). */
export function objectKeysAt(schema: z.ZodType, path: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, rest: readonly string[], depth: number): void => {
    const def = defOf(node);
    if (def === undefined || depth > 64) return;
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : def.getter?.());
    if (inner !== undefined) {
      walk(inner, rest, depth + 1);
    } else if (def.type === 'union' && def.options) {
      for (const option of def.options) walk(option, rest, depth + 1);
    } else if (rest.length === 0) {
      if (def.type === 'object' && def.shape) for (const key of Object.keys(def.shape)) found.add(key);
    } else {
      const [head, ...tail] = rest;
      if (def.type === 'object' && def.shape && head !== undefined) walk(def.shape[head], tail, depth + 1);
      else if (def.type === 'record') walk(def.valueType, tail, depth + 1);
      else if (def.type === 'array') walk(def.element, tail, depth + 1);
    }
  };
  walk(schema, path, 0);
  return [...found];
}

function defOf(node: unknown): ZodDefLike | undefined {
  const internals = (node as { _zod?: { def?: ZodDefLike } } | undefined)?._zod;
  return internals?.def;
}
