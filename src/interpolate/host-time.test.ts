import { describe, expect, it } from 'vitest';
import { InputError } from '../errors/index.js';
import { parseEvidence } from './dia-id.js';
import { formatLocomoTime, formatPlainTime, parseLocomoTime, parsePlainTime } from './host-time.js';
import { interpolationTimes, placeSessions } from './times.js';

describe('LoCoMo times', () => {
  it.each([
    ['1:56 pm on 8 May, 2023', Date.UTC(2023, 4, 8, 13, 56)],
    ['12:00 am on 1 January, 2024', Date.UTC(2024, 0, 1, 0, 0)],
    ['12:05 pm on 31 December, 2022', Date.UTC(2022, 11, 31, 12, 5)],
    ['10:37 am on 27 June, 2023', Date.UTC(2023, 5, 27, 10, 37)],
  ])('parses and formats %s', (text, ms) => {
    expect(parseLocomoTime(text)).toBe(ms);
    expect(formatLocomoTime(ms)).toBe(text);
  });

  it('rejects text it cannot read with an InputError', () => {
    expect(() => parseLocomoTime('yesterday at noon')).toThrow(InputError);
    expect(() => parseLocomoTime('1:56 pm on 8 Mayo, 2023')).toThrow(/cannot parse/);
  });

  it('reads and writes PersonaVLM times', () => {
    expect(parsePlainTime('2024-09-23 20:08')).toBe(Date.UTC(2024, 8, 23, 20, 8));
    expect(formatPlainTime(Date.UTC(2024, 8, 23, 20, 8))).toBe('2024-09-23 20:08');
    expect(formatPlainTime(Date.UTC(2024, 8, 23, 20, 8, 5), true)).toBe('2024-09-23 20:08:05');
  });
});

describe('parseEvidence', () => {
  it.each([
    ['D1:3', 'ok', 1],
    ['D8:6; D9:17', 'split', 2],
    ['D9:1 D4:4 D4:6', 'split', 3],
    ['D22:1 D22:2 D9:10 D9:11', 'split', 4],
  ])('%s → %s', (value, kind, count) => {
    const parsed = parseEvidence(value);
    expect(parsed.kind).toBe(kind);
    expect(parsed.kind !== 'malformed' && parsed.ids.length).toBe(count);
  });
  it.each(['D', 'D:11:26', '', 'D3', 'x D1:2'])('%s is malformed', (value) => {
    expect(parseEvidence(value).kind).toBe('malformed');
  });
});

describe('interpolation times', () => {
  it('follows τ_j = t_start + j/(N+1)·(t_end − t_start)', () => {
    expect(interpolationTimes(0, 100, 4)).toEqual([20, 40, 60, 80]);
    expect(interpolationTimes(0, 10 * 60_000, 2, 60_000)).toEqual([180_000, 360_000]);
  });
  it('places sessions when they fit and refuses when they would overlap', () => {
    expect(placeSessions(0, 60 * 60_000, [5 * 60_000, 5 * 60_000], 60_000)).toEqual([
      20 * 60_000,
      40 * 60_000,
    ]);
    expect(() => placeSessions(0, 60 * 60_000, [25 * 60_000, 5 * 60_000], 60_000)).toThrow(/too small/);
    expect(() => placeSessions(10, 10, [1])).toThrow(/not in order/);
  });
});
