import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';

/**
 * A `packed-v2` memory record rewritten in the `packed-v1` form that runs of earlier versions
 * hold: no index, traces as one JSON object `{ turns, traces }` instead of one line per trace.
 */
export function toPackedV1(record: Record<string, unknown>): Record<string, unknown> {
  const packed = { ...(record.packed as Record<string, unknown>) };
  const lines = brotliDecompressSync(Buffer.from(packed.traces as string, 'base64'))
    .toString('utf8')
    .split('\n');
  const traces = {
    turns: JSON.parse(lines[0] as string),
    traces: lines.slice(1).map((line) => JSON.parse(line)),
  };
  packed.traces = brotliCompressSync(JSON.stringify(traces)).toString('base64');
  packed.encoding = 'packed-v1';
  delete packed.index;
  return { ...record, packed };
}
