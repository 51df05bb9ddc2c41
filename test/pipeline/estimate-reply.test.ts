import { describe, expect, it } from 'vitest';
import { sizeReply } from '../../src/pipeline/estimate-reply.js';

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;

describe('estimate: an assistant reply sized as the realizer prompt asks', () => {
  const reply =
    'Packing light with a carry-on, noted. A practical move would be to drop the hardest part of packing for a month. How does that sound? One more thing: do you want a shorter plan for this weekend?';

  it('keeps whole sentences while the reply is shorter than the length asked for', () => {
    const sized = sizeReply(reply, 12);
    expect(sized).toBe(
      'Packing light with a carry-on, noted. A practical move would be to drop the hardest part of packing for a month.',
    );
    expect(words(sized)).toBeGreaterThanOrEqual(12);
  });

  it('repeats the reply’s own sentences when it is shorter than asked', () => {
    const sized = sizeReply('Got it. I will remember that.', 10);
    expect(sized).toBe('Got it. I will remember that. Got it. I will remember that.');
    expect(words(sized)).toBeGreaterThanOrEqual(10);
  });
});
