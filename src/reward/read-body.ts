import type { Context } from 'hono';

/**
 * Reads a request body as UTF-8 text, refusing more than `maxBytes` (the rest of a body over
 * the limit is read and dropped, never kept, so the 413 reaches a client still sending). On a real socket it reads the Node
 * request stream directly (the `incoming` binding of @hono/node-server): materialising a fetch
 * `Request` for every small reward call costs more than scoring it. In process (`app.request`)
 * it reads the fetch body stream.
 *
 * @example const body = await readBodyText(c, 16 * 1024 * 1024); if (!body.ok) return c.json({…}, 413);
 */
export async function readBodyText(
  c: Context,
  maxBytes: number,
): Promise<{ ok: true; text: string } | { ok: false; size: number }> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  const incoming = (c.env as { incoming?: AsyncIterable<Buffer> } | undefined)?.incoming;
  const chunks: Uint8Array[] = [];
  let size = 0;
  let tooLarge = false;
  const take = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    // Past the limit, keep draining so the 413 can still be answered on this connection.
    if (size > maxBytes) tooLarge = true;
    else chunks.push(chunk);
  };
  // Past 32× the limit the connection is dropped instead (a client sending without end).
  const drainCap = maxBytes * 32;
  if (incoming !== undefined && Symbol.asyncIterator in incoming) {
    for await (const chunk of incoming) {
      take(chunk);
      if (size > drainCap) break;
    }
  } else {
    const body = c.req.raw.body;
    if (body !== null)
      for await (const chunk of body) {
        take(chunk);
        if (size > drainCap) break;
      }
  }
  // A declared or read size over the limit: refused after draining, so the client reads a 413
  // instead of a broken pipe while it is still sending.
  if (tooLarge || declared > maxBytes) return { ok: false, size: Math.max(size, declared || 0) };
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
