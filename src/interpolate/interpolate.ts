import { InputError } from '../errors/index.js';
import { createRng } from '../util/rng.js';
import { interpolateLocomoRecord, locomoSessionNumbers } from './locomo.js';
import { interpolateNative } from './native.js';
import { interpolatePersonaVlm } from './personavlm.js';
import type { InterpolateOptions, InterpolationResult } from './types.js';

type Json = Record<string, unknown>;

function hostSessionCount(options: InterpolateOptions, record: unknown): number {
  if (options.format === 'locomo') {
    const numbers = locomoSessionNumbers(record as Json);
    return numbers[numbers.length - 1] ?? 0;
  }
  const sessions = (record as Json).sessions;
  return Array.isArray(sessions) ? sessions.length : 0;
}

/**
 * Inserts N generated sessions into a host conversation at τ_j = t_start + j/(N+1)·(t_end −
 * t_start) (M²A, SPEC.md §3), returning the merged document in the host's own format plus a
 * report (times, renumbering, remapped QA, warnings for malformed host evidence). Host turns
 * are kept byte for byte apart from renumbered id fields (see each adapter for the exact list).
 * A gap too small for the sessions throws `InterpolationError`.
 *
 * For a LoCoMo list (`locomo10.json`), `conversation` picks the record (default 0); the others
 * are returned unchanged.
 *
 * @example
 * const { document, report } = interpolateIntoHost({ host, format: 'locomo', sessions: { sessions }, seed: 42 });
 */
export function interpolateIntoHost(options: InterpolateOptions): InterpolationResult {
  if (options.sessions.sessions.length === 0)
    throw new InputError('interpolate', 'no sessions to insert', { field: 'sessions' });
  const isList = options.format === 'locomo' && Array.isArray(options.host);
  const which = options.conversation ?? 0;
  const record: unknown = isList ? (options.host as unknown[])[which] : options.host;
  if (record === null || typeof record !== 'object')
    throw new InputError(
      'interpolate',
      `host ${isList ? `conversation ${which}` : 'document'} is not an object`,
      { field: 'host' },
    );
  const count = hostSessionCount(options, record);
  if (count < 2)
    throw new InputError(
      'interpolate',
      `the host has ${count} session(s); at least 2 are needed to insert between`,
      { field: 'host' },
    );
  const position = options.position ?? createRng(options.seed, 'interpolate', 'position').int(1, count - 1);

  if (options.format === 'locomo') {
    const { document, report } = interpolateLocomoRecord(
      record as Json,
      options.sessions,
      position,
      options.speakers,
    );
    const merged = isList
      ? (options.host as unknown[]).map((item, i) => (i === which ? document : item))
      : document;
    return { document: merged, report: { format: 'locomo', ...report } };
  }
  if (options.format === 'personavlm') {
    const { document, report } = interpolatePersonaVlm(record as Json, options.sessions, position);
    return { document, report: { format: 'personavlm', ...report } };
  }
  const { document, report } = interpolateNative(record, options.sessions, position);
  return { document, report: { format: 'native', ...report } };
}
