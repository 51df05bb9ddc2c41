import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors/index.js';
import { readLineSpans, readLines } from './read-lines.js';

const collect = async (iterable: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const line of iterable) out.push(line);
  return out;
};

describe('readLines', () => {
  it('splits lines across chunk boundaries, multi-byte characters included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pf-lines-'));
    const lines = ['', 'héllo wörld 🍜', 'x'.repeat(50), 'last\r', 'no newline at end'];
    await writeFile(join(dir, 'a.txt'), lines.join('\n'));
    for (const chunkBytes of [1, 3, 7, 1 << 20]) {
      expect(await collect(readLines(join(dir, 'a.txt'), { chunkBytes }))).toEqual([
        '',
        'héllo wörld 🍜',
        'x'.repeat(50),
        'last',
        'no newline at end',
      ]);
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('throws an InputError for a missing file', async () => {
    await expect(collect(readLines('/nonexistent/file.jsonl'))).rejects.toBeInstanceOf(InputError);
  });
});

describe('readLineSpans', () => {
  it('gives each non-empty line its byte span, across chunk borders, multi-byte text and CRLF', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spans-'));
    try {
      const lines = [
        '{"userId":"a","x":"é😀"}',
        '',
        '{"userId":"b"}\r',
        '   ',
        'x'.repeat(50),
        '{"userId":"c"}',
      ];
      const text = lines.join('\n');
      const path = join(dir, 'f.jsonl');
      await writeFile(path, text);
      const bytes = Buffer.from(text);
      for (const chunkBytes of [7, 16, 1 << 20]) {
        const spans = [];
        for await (const span of readLineSpans(path, { chunkBytes, headBytes: 12 })) spans.push(span);
        const got = spans.map((span) => bytes.subarray(span.offset, span.offset + span.length).toString());
        expect(got).toEqual(['{"userId":"a","x":"é😀"}', '{"userId":"b"}', 'x'.repeat(50), '{"userId":"c"}']);
        expect(spans[0]!.text()).toBe(got[0]);
        expect(spans[0]!.head).toBe('{"userId":"a');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
