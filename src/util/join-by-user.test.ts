import { describe, expect, it } from 'vitest';
import { joinByUser, userIdOf } from './join-by-user.js';

async function* records(...ids: string[]): AsyncGenerator<{ userId: string; n: string }> {
  for (const id of ids) yield { userId: id, n: id };
}

describe('joinByUser', () => {
  it('joins each driving record with the same user of every other file, null when missing, undefined when absent', async () => {
    const rows = [];
    for await (const row of joinByUser(records('a', 'b', 'c', 'd'), {
      dialogue: records('a', 'c', 'd', 'e'),
      memory: null,
      extra: records('0', 'b'),
    }))
      rows.push([
        row.key,
        row.others.dialogue?.n ?? row.others.dialogue,
        row.others.memory,
        row.others.extra?.n ?? row.others.extra,
      ]);
    expect(rows).toEqual([
      ['a', 'a', undefined, null],
      ['b', null, undefined, 'b'],
      ['c', 'c', undefined, null],
      ['d', 'd', undefined, null],
    ]);
  });

  it('closes the other files when the consumer stops early', async () => {
    let closed = false;
    async function* other() {
      try {
        yield* records('a', 'b');
      } finally {
        closed = true;
      }
    }
    for await (const _ of joinByUser(records('a', 'b'), { other: other() })) break;
    expect(closed).toBe(true);
  });
});

describe('userIdOf', () => {
  it('reads the id near the start, escapes included, else parses the line; a line that is not JSON throws', () => {
    expect(userIdOf('{"userId":"u\\"1","x":1}', () => '')).toBe('u"1');
    expect(userIdOf('{"x":1', () => '{"x":1,"userId":"late"}')).toBe('late');
    expect(() => userIdOf('not json', () => 'not json')).toThrow();
  });
});
