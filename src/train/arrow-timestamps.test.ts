import { describe, expect, it } from 'vitest';
import { parsesAsArrowTimestamp, TimestampColumnTracker } from './arrow-timestamps.js';

describe("Arrow's ISO-8601 parse at unit s (what datasets types as timestamp[s])", () => {
  it.each([
    '2024-02-12',
    '2024-02-12 12',
    '2024-02-12 12:00',
    '2024-02-12T12:00',
    '2024-02-12 12:00:59',
    '2024-02-12 12:00Z',
    '2024-02-12T12:00:00+01:00',
    '2024-02-29 00:00',
  ])('accepts %s', (value) => expect(parsesAsArrowTimestamp(value)).toBe(true));

  it.each([
    '',
    '2024-02-12x12:00',
    '2024-02-12 12:00:00.5', // fractions need a finer unit than seconds
    '2023-02-29 00:00', // no such day
    '2024-13-01',
    '2024-02-12 24:00',
    '12 Feb 2024',
    '1:56 pm on 8 May, 2023', // LoCoMo's session time stays a string
    ' 2024-02-12 12:00',
  ])('rejects %j', (value) => expect(parsesAsArrowTimestamp(value)).toBe(false));

  it('a column is a timestamp column only when every non-null value parses', () => {
    const tracker = new TimestampColumnTracker();
    tracker.add({ question_time: '2024-02-12 12:00', note: '2024-02-12', id: 'a' });
    tracker.add({ question_time: '2024-03-01 08:30', note: 'later', id: 'b', extra: null });
    expect(tracker.columns()).toEqual(['question_time']);
  });
});
