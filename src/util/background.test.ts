import { describe, expect, it } from 'vitest';
import { backgroundWrites } from './background.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('backgroundWrites', () => {
  it('runs at most `limit` tasks at once and drains them all', async () => {
    const writes = backgroundWrites(2);
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    for (let i = 0; i < 7; i++) {
      await writes.add(async () => {
        running++;
        peak = Math.max(peak, running);
        await tick();
        running--;
        done.push(i);
      });
    }
    await writes.drain();
    expect(peak).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('does not wait for a task while fewer than `limit` run', async () => {
    const writes = backgroundWrites(4);
    let finished = false;
    await writes.add(async () => {
      await tick();
      finished = true;
    });
    expect(finished).toBe(false);
    await writes.drain();
    expect(finished).toBe(true);
  });

  it('throws the first failure from the next add and from drain', async () => {
    const writes = backgroundWrites(1);
    await writes.add(async () => {
      throw new Error('disk full at a');
    });
    await expect(writes.add(async () => {})).rejects.toThrow('disk full at a');
    await expect(writes.drain()).rejects.toThrow('disk full at a');
  });
});
