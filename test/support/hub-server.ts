import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Hugging Face Hub: answers exactly the calls `@huggingface/hub`'s
 * `downloadFileToCacheDir` makes (found by logging the library's requests against this server
 * and reading how it parses each answer), with the shapes and headers the Hub uses for an
 * LFS-stored dataset file. Xet-backed transfers are not emulated: without the xet content type
 * the library takes the plain LFS path, which is the one tested here.
 *
 * 1. `POST /api/datasets/<repo>/paths-info/<rev>` `{paths, expand: true}` → JSON array of
 *    `{type, oid, size, path, lfs: {oid, size, pointerSize}, lastCommit: {id, title, date}}`.
 * 2. `GET /datasets/<repo>/resolve/<rev>/<path>` (Range: bytes=0-0) → 302 to the LFS CDN with
 *    `x-repo-commit`, `x-linked-etag`, `x-linked-size`; the CDN answers 206 with
 *    `content-range: bytes 0-0/<size>` and an `etag`.
 * 3. `GET <cdn url>` without Range → 200 with the bytes, `content-length`, `etag`.
 *
 * Every request is recorded (method, path, headers) so tests can count them and check the token.
 * Listens on 127.0.0.1 only; `close()` stops it.
 *
 * @example
 * const hub = await startHubServer({ repo: 'proj-persona/PersonaHub', files: { 'persona.jsonl': text } });
 * await downloadFileToCacheDir({ repo: { type: 'dataset', name: hub.repo }, path: 'persona.jsonl', hubUrl: hub.url });
 * await hub.close();
 */
export interface HubServerOptions {
  /** Dataset repo id, e.g. `proj-persona/PersonaHub`. */
  repo: string;
  files: Record<string, string | Uint8Array>;
  /** When set, API and resolve calls without `Authorization: Bearer <token>` get 401. */
  token?: string;
  /** Commit id the `main` branch points at. @default a fixed 40-hex id */
  commit?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface HubServer {
  url: string;
  repo: string;
  commit: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const DEFAULT_COMMIT = 'b7d1c2a3e4f5061728394a5b6c7d8e9f0a1b2c3d';

interface StoredFile {
  bytes: Buffer;
  gitOid: string;
  sha256: string;
}

function gitBlobOid(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

function sendError(response: ServerResponse, status: number, code: string, message: string) {
  sendJson(response, status, { error: message }, { 'x-error-code': code, 'x-error-message': message });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startHubServer(options: HubServerOptions): Promise<HubServer> {
  const commit = options.commit ?? DEFAULT_COMMIT;
  const files = new Map<string, StoredFile>();
  for (const [path, content] of Object.entries(options.files)) {
    const bytes = Buffer.from(content);
    files.set(path, {
      bytes,
      gitOid: gitBlobOid(bytes),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  const bySha = new Map([...files.values()].map((file) => [file.sha256, file]));
  const requests: RecordedRequest[] = [];
  const apiPrefix = `/api/datasets/${options.repo}/paths-info/`;
  const resolvePrefix = `/datasets/${options.repo}/resolve/`;

  const authorized = (request: IncomingMessage): boolean =>
    options.token === undefined || request.headers.authorization === `Bearer ${options.token}`;
  const knownRevision = (revision: string): boolean => revision === 'main' || revision === commit;

  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/');
    requests.push({ method: request.method ?? 'GET', path, headers: { ...request.headers } });
    void (async () => {
      if (request.method === 'POST' && path.startsWith(apiPrefix)) {
        const body = JSON.parse((await readBody(request)) || '{}') as { paths?: string[] };
        if (!authorized(request))
          return sendError(response, 401, 'RepoNotFound', 'Invalid credentials in Authorization header');
        if (!knownRevision(path.slice(apiPrefix.length))) {
          return sendError(response, 404, 'RevisionNotFound', 'Invalid rev id');
        }
        const out = (body.paths ?? []).flatMap((name) => {
          const file = files.get(name);
          if (file === undefined) return [];
          return [
            {
              type: 'file',
              oid: file.gitOid,
              size: file.bytes.length,
              lfs: { oid: file.sha256, size: file.bytes.length, pointerSize: 134 },
              path: name,
              lastCommit: { id: commit, title: 'Upload persona.jsonl', date: '2024-06-28T10:12:45.000Z' },
              securityFileStatus: { status: 'safe' },
            },
          ];
        });
        return sendJson(response, 200, out, { 'x-repo-commit': commit });
      }
      if ((request.method === 'GET' || request.method === 'HEAD') && path.startsWith(resolvePrefix)) {
        if (!authorized(request))
          return sendError(response, 401, 'RepoNotFound', 'Invalid credentials in Authorization header');
        const rest = path.slice(resolvePrefix.length);
        const slash = rest.indexOf('/');
        const revision = rest.slice(0, slash);
        const file = files.get(rest.slice(slash + 1));
        if (!knownRevision(revision)) return sendError(response, 404, 'RevisionNotFound', 'Invalid rev id');
        if (file === undefined) return sendError(response, 404, 'EntryNotFound', 'Entry not found');
        response.writeHead(302, {
          location: `/cdn-lfs/${file.sha256}`,
          etag: `"${file.gitOid}"`,
          'x-repo-commit': commit,
          'x-linked-etag': `"${file.sha256}"`,
          'x-linked-size': String(file.bytes.length),
          'content-length': '0',
        });
        return response.end();
      }
      if (request.method === 'GET' && path.startsWith('/cdn-lfs/')) {
        const file = bySha.get(path.slice('/cdn-lfs/'.length));
        if (file === undefined) return sendError(response, 404, 'EntryNotFound', 'Entry not found');
        const common = {
          etag: `"${file.sha256}"`,
          'accept-ranges': 'bytes',
          'content-type': 'binary/octet-stream',
        };
        const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
        if (range !== null) {
          const start = Number(range[1]);
          const end = Math.min(Number(range[2]), file.bytes.length - 1);
          response.writeHead(206, {
            ...common,
            'content-range': `bytes ${start}-${end}/${file.bytes.length}`,
            'content-length': String(end - start + 1),
          });
          return response.end(file.bytes.subarray(start, end + 1));
        }
        response.writeHead(200, { ...common, 'content-length': String(file.bytes.length) });
        return response.end(file.bytes);
      }
      return sendError(response, 404, 'RepoNotFound', `no route for ${request.method} ${path}`);
    })().catch((error: unknown) => {
      response.destroy(error as Error);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    repo: options.repo,
    commit,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
