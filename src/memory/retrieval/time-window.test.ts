import { describe, expect, it } from 'vitest';
import { createTimeWindow, inWindow, parseRetrieveTime } from './time-window.js';

const at = (iso: string) => Date.parse(iso);

describe('time windows', () => {
  const window = createTimeWindow('2024-03-05 14:00', '2024-03-05 15:30');
  it.each([
    ['2024-03-05T13:59:59.999Z', false],
    ['2024-03-05T14:00:00.000Z', true],
    ['2024-03-05T15:30:00.000Z', true],
    ['2024-03-05T15:30:59.999Z', true],
    ['2024-03-05T15:31:00.000Z', false],
  ])(
    'entry at %s inside [14:00, 15:30] → %s (both ends inclusive, end to the end of its minute)',
    (time, inside) => {
      expect(inWindow(window, at(time))).toBe(inside);
    },
  );

  it('treats null, "null" and unreadable bounds as open', () => {
    const open = createTimeWindow(null, 'null');
    expect(inWindow(open, at('1990-01-01T00:00:00Z'))).toBe(true);
    expect(createTimeWindow('soon', undefined).from).toBe(Number.NEGATIVE_INFINITY);
  });

  it('reads dates as whole days and ISO instants exactly', () => {
    expect(parseRetrieveTime('2024-03-05', 'end')).toBe(at('2024-03-05T23:59:59.999Z'));
    expect(parseRetrieveTime('2024-03-05T14:07:30.000Z', 'end')).toBe(at('2024-03-05T14:07:30.000Z'));
    expect(parseRetrieveTime('2024-03-05 14:07', 'start')).toBe(at('2024-03-05T14:07:00.000Z'));
  });
});
