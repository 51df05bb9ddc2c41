import { describe, expect, it } from 'vitest';
import { clonePlain } from './clone.js';

describe('clonePlain', () => {
  it('copies plain data as structuredClone does: same JSON, same keys in order, undefined kept', () => {
    const value = { b: 1, a: [1, 'x', null, { c: undefined, d: [true, 2.5] }], e: { f: '' } };
    const copy = clonePlain(value);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    expect(Object.keys(copy.a[3] as object)).toEqual(['c', 'd']);
  });

  it('shares nothing with the original', () => {
    const value = { list: [{ n: 1 }], inner: { deep: { n: 2 } } };
    const copy = clonePlain(value);
    value.list[0]!.n = 9;
    value.inner.deep.n = 9;
    value.list.push({ n: 3 });
    expect(copy).toEqual({ list: [{ n: 1 }], inner: { deep: { n: 2 } } });
  });

  it('hands what is not plain data to structuredClone', () => {
    const when = new Date(0);
    const copy = clonePlain({ when, tags: new Set(['a']) });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(0);
    expect(copy.tags).toEqual(new Set(['a']));
  });
});
