import type { Context } from 'hono';

/**
 * Reads a request body as UTF-8 text, refusing more than `maxBytes` (a declared
 * `content-length` above it is refused before reading). On a real socket it reads the Node
 * request stream directly (the `incoming` binding of @hono/node-server): materialising a fetch
 * `Request` for every small reward call costs more than scoring it. In process (`app.request`)
 * it reads the fetch body stream.
 *
 * @example const body = await readBodyText(c, 16 * 1024 * 1024); if (!body.ok) return c.json({…}, 413);
 */
export async function readBodyText(
  c: Context,
  maxBytes: number,
): Promise<{ ok: true; text: string } | { ok: false }> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  if (declared > maxBytes) return { ok: false };
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
  if (incoming !== undefined && Symbol.asyncIterator in incoming) {
    for await (const chunk of incoming) take(chunk);
  } else {
    const body = c.req.raw.body;
    if (body !== null) for await (const chunk of body) take(chunk);
  }
  if (tooLarge) return { ok: false };
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
