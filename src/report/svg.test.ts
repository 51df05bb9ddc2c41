import { describe, expect, it } from 'vitest';
import { barChart, histogram, lineChart, timelineChart } from './svg.js';

const marks = (svg: string) => (svg.match(/class="mark"/g) ?? []).length;

describe('svg charts', () => {
  it('draws one bar per value, scaled to the largest', () => {
    const svg = barChart(
      [
        { label: 'food', value: 10 },
        { label: 'travel', value: 5 },
      ],
      { title: 'mix', width: 400 },
    );
    expect(marks(svg)).toBe(2);
    const widths = [...svg.matchAll(/class="mark" x="[\d.]+" y="[\d.]+" width="([\d.]+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(widths[0]).toBeCloseTo((widths[1] as number) * 2, 0);
  });

  it('bins a histogram so the counts add up to the number of values', () => {
    const svg = histogram([1, 2, 2, 3, 10], { title: 't', bins: 3, xLabel: 'x' });
    const counts = [...svg.matchAll(/<title>[^:]+: (\d+)<\/title>/g)].map((m) => Number(m[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    expect(counts).toEqual([4, 0, 1]);
  });

  it('escapes labels and draws every series and event', () => {
    const line = lineChart(
      [
        {
          name: 'a<b',
          points: [
            { x: 0, y: 1 },
            { x: 1, y: 2 },
          ],
        },
      ],
      { title: 't', xLabel: 'day' },
    );
    expect(line).toContain('a&lt;b');
    expect(line).not.toContain('a<b');
    const timeline = timelineChart(
      [
        {
          label: 'u1',
          sessions: [
            { day: 0, rounds: 10 },
            { day: 3, rounds: 4 },
          ],
          events: [{ day: 2, kind: 'modify', label: 'x' }],
        },
      ],
      { title: 't' },
    );
    expect(marks(timeline)).toBe(3);
  });
});
