import { describe, expect, it } from 'vitest';
import { collectGarbage } from './gc.js';

describe('collectGarbage', () => {
  it('runs a full collection: an object only a WeakRef holds is gone afterwards', async () => {
    const ref = new WeakRef({ payload: new Array(1000).fill('garbage') });
    // A WeakRef's target lives until the end of the job that made it.
    await new Promise((done) => setTimeout(done, 0));
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
  });
});
