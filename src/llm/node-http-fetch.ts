import http from 'node:http';
import https from 'node:https';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const decoders: Record<string, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/**
 * A `fetch` for the openai SDK built on `node:http(s)` with keep-alive agents. It buffers the
 * whole answer before resolving (the SDK never streams here), which costs less than half the
 * CPU per call of Node's built-in fetch — what lets one process drive ≥ 1,000 calls/s — and
 * means a body cut short rejects inside fetch, where the SDK's own retries see it. Bodies other
 * than strings/bytes (uploads) go to `globalThis.fetch`.
 *
 * @example new OpenAI({ baseURL, apiKey, fetch: createNodeHttpFetch() })
 */
export function createNodeHttpFetch(): typeof globalThis.fetch {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  return (input, init = {}) => {
    const body = init.body;
    if (
      input instanceof Request ||
      (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))
    ) {
      return globalThis.fetch(input, init);
    }
    const url = typeof input === 'string' ? new URL(input) : input;
    const protocol = url.protocol as 'http:' | 'https:';
    const transport = protocol === 'https:' ? https : http;
    const headers: Record<string, string> = {};
    const source = init.headers;
    if (source instanceof Headers) {
      source.forEach((value, key) => {
        headers[key] = value;
      });
    } else if (source != null) {
      const entries = Array.isArray(source) ? source : Object.entries(source);
      for (const [key, value] of entries) headers[String(key).toLowerCase()] = String(value);
    }
    headers['accept-encoding'] = 'gzip, deflate, br';
    if (body != null) headers['content-length'] = String(Buffer.byteLength(body));
    const signal = init.signal ?? undefined;

    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError());
        return;
      }
      const request = transport.request(url, {
        method: init.method ?? 'GET',
        headers,
        agent: agents[protocol],
      });
      const onAbort = (): void => {
        request.destroy(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      request.on('error', (error) => {
        done();
        reject(
          error.name === 'AbortError'
            ? error
            : new TypeError(`fetch failed: ${error.message}`, { cause: error }),
        );
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => {
          done();
          reject(new TypeError(`fetch failed: ${error.message}`, { cause: error }));
        });
        response.on('aborted', () => {
          done();
          reject(new TypeError('fetch failed: the response body was cut short'));
        });
        response.on('end', () => {
          done();
          if (!response.complete) {
            reject(new TypeError('fetch failed: the response body was cut short'));
            return;
          }
          const status = response.statusCode ?? 0;
          const encoding = response.headers['content-encoding'];
          const raw = Buffer.concat(chunks);
          const decode =
            encoding !== undefined && encoding in decoders
              ? (decoders[encoding] as (data: Buffer) => Promise<Buffer>)(raw)
              : Promise.resolve(raw);
          decode.then((data) => {
            const responseHeaders = new Headers();
            const list = response.rawHeaders;
            for (let index = 0; index + 1 < list.length; index += 2) {
              const key = (list[index] as string).toLowerCase();
              if (key !== 'content-encoding' && key !== 'content-length')
                responseHeaders.append(key, list[index + 1] as string);
            }
            const nullBody = status === 204 || status === 304 || init.method === 'HEAD';
            const buffered = new BufferedResponse(
              status,
              response.statusMessage ?? '',
              responseHeaders,
              url.href,
              nullBody ? undefined : data,
            );
            resolve(buffered as unknown as Response);
          }, reject);
        });
      });
      request.end(body ?? undefined);
    });
  };
}

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The part of `Response` the openai SDK reads (status, ok, headers, url, text/json, a null
 * `body`), over an already-buffered answer. A real `Response` would wrap the bytes in a
 * WHATWG stream only to read them back at once, which costs ~10% of a call's CPU.
 */
class BufferedResponse {
  readonly ok: boolean;
  readonly body = null;
  readonly redirected = false;
  readonly type = 'basic';
  bodyUsed = false;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: Headers,
    readonly url: string,
    private readonly data: Buffer | undefined,
  ) {
    this.ok = status >= 200 && status < 300;
  }

  async text(): Promise<string> {
    this.bodyUsed = true;
    return this.data === undefined ? '' : this.data.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    this.bodyUsed = true;
    const data = this.data ?? Buffer.alloc(0);
    return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }

  clone(): BufferedResponse {
    return new BufferedResponse(this.status, this.statusText, this.headers, this.url, this.data);
  }
}
