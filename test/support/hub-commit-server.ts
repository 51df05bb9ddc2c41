/**
 * A local stand-in for the Hugging Face Hub endpoints that `@huggingface/hub`'s `createRepo` and
 * `uploadFiles` (commit API, `useXet: false`) call — and only those:
 * - `POST /api/repos/create` (409 when the repo exists)
 * - `POST /api/{type}s/{ns}/{name}/preupload/{rev}` (files ≥ `lfsThreshold` bytes or `*.parquet` → "lfs")
 * - `POST /{type}s/{ns}/{name}.git/info/lfs/objects/batch` (basic transfer, upload href on this server)
 * - `PUT /lfs-upload/{oid}` (stores the blob, checks its sha256)
 * - `POST /api/{type}s/{ns}/{name}/commit/{rev}` (NDJSON: header, file, lfsFile lines)
 * Every request is logged; committed files are kept with their bytes. Loopback only.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HubRequestLog {
  method: string;
  path: string;
  authorization: string | null;
}

export interface HubCommit {
  repo: string;
  revision: string;
  summary: string;
  files: Map<string, Buffer>;
}

export interface HubCommitServer {
  url: string;
  requests: HubRequestLog[];
  repos: Map<string, { private: boolean; type: string }>;
  commits: HubCommit[];
  close(): Promise<void>;
}

async function body(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function json(response: ServerResponse, status: number, value: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

/**
 * Starts the server on 127.0.0.1 (random port).
 *
 * @example const hub = await startHubCommitServer(); await pushToHub(dir, { repo: 'me/x', hubUrl: hub.url, token: 'hf_test' }); await hub.close();
 */
export async function startHubCommitServer(
  options: { lfsThreshold?: number; token?: string } = {},
): Promise<HubCommitServer> {
  const lfsThreshold = options.lfsThreshold ?? 10 * 1024 * 1024;
  const requests: HubRequestLog[] = [];
  const repos = new Map<string, { private: boolean; type: string }>();
  const commits: HubCommit[] = [];
  const blobs = new Map<string, Buffer>();
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    const authorization = request.headers.authorization ?? null;
    requests.push({ method: request.method ?? '', path, authorization });
    if (
      options.token !== undefined &&
      !path.startsWith('/lfs-upload/') &&
      authorization !== `Bearer ${options.token}`
    ) {
      return json(response, 401, { error: 'Invalid credentials' });
    }
    try {
      if (request.method === 'POST' && path === '/api/repos/create') {
        const payload = JSON.parse((await body(request)).toString('utf8'));
        const id = `${payload.organization}/${payload.name}`;
        if (repos.has(id))
          return json(response, 409, {
            error: 'You already created this repo',
            url: `${server_url()}/${id}`,
          });
        repos.set(id, { private: payload.visibility === 'private', type: payload.type });
        return json(response, 200, { url: `${server_url()}/datasets/${id}`, name: id });
      }
      let match = /^\/api\/(model|dataset|space)s\/([^/]+\/[^/]+)\/preupload\/(.+)$/.exec(path);
      if (request.method === 'POST' && match !== null) {
        if (!repos.has(match[2]!)) return json(response, 404, { error: 'Repository not found' });
        const payload = JSON.parse((await body(request)).toString('utf8')) as {
          files: Array<{ path: string; size: number }>;
        };
        return json(response, 200, {
          files: payload.files.map((file) => ({
            path: file.path,
            uploadMode: file.size >= lfsThreshold || file.path.endsWith('.parquet') ? 'lfs' : 'regular',
            shouldIgnore: false,
          })),
        });
      }
      match = /^\/(?:(dataset|space)s\/)?([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(path);
      if (request.method === 'POST' && match !== null) {
        const payload = JSON.parse((await body(request)).toString('utf8')) as {
          objects: Array<{ oid: string; size: number }>;
        };
        return json(response, 200, {
          transfer: 'basic',
          objects: payload.objects.map((object) => ({
            oid: object.oid,
            size: object.size,
            ...(blobs.has(object.oid)
              ? {}
              : { actions: { upload: { href: `${server_url()}/lfs-upload/${object.oid}`, header: {} } } }),
          })),
        });
      }
      match = /^\/lfs-upload\/([0-9a-f]{64})$/.exec(path);
      if (request.method === 'PUT' && match !== null) {
        const data = await body(request);
        if (createHash('sha256').update(data).digest('hex') !== match[1])
          return json(response, 400, { error: 'sha256 mismatch' });
        blobs.set(match[1]!, data);
        response.writeHead(200);
        return response.end();
      }
      match = /^\/api\/(model|dataset|space)s\/([^/]+\/[^/]+)\/commit\/(.+)$/.exec(path);
      if (request.method === 'POST' && match !== null) {
        if (!repos.has(match[2]!)) return json(response, 404, { error: 'Repository not found' });
        const lines = (await body(request))
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line));
        const commit: HubCommit = { repo: match[2]!, revision: match[3]!, summary: '', files: new Map() };
        for (const line of lines) {
          if (line.key === 'header') commit.summary = line.value.summary ?? '';
          else if (line.key === 'file')
            commit.files.set(
              line.value.path,
              Buffer.from(line.value.content, line.value.encoding === 'base64' ? 'base64' : 'utf8'),
            );
          else if (line.key === 'lfsFile') {
            const blob = blobs.get(line.value.oid);
            if (blob === undefined)
              return json(response, 422, { error: `LFS object ${line.value.oid} was never uploaded` });
            commit.files.set(line.value.path, blob);
          } else return json(response, 400, { error: `unknown line key ${line.key}` });
        }
        commits.push(commit);
        const oid = createHash('sha1').update(String(commits.length)).digest('hex');
        return json(response, 200, {
          success: true,
          commitOid: oid,
          commitUrl: `${server_url()}/${match[2]}/commit/${oid}`,
          hookOutput: '',
        });
      }
      return json(response, 404, { error: `not implemented: ${request.method} ${path}` });
    } catch (error) {
      return json(response, 500, { error: (error as Error).message });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const server_url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = server_url();
  return {
    url,
    requests,
    repos,
    commits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
