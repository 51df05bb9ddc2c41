import { LlmCallError } from '../errors/index.js';
import type { EndpointConfig, LlmConfig } from '../schemas/llm-config.js';

/** What one probe of one base URL found. */
export interface ProbeResult {
  endpoint: string;
  baseUrl: string;
  model: string;
  /** Model ids `/models` listed (empty when the server has no `/models`). */
  listed: string[];
  /** How the tiny request was made: a one-token chat completion or a one-text embedding. */
  request: 'chat' | 'embeddings';
  ms: number;
}

export interface ProbeOptions {
  /** Where API keys named by `apiKeyEnv` are read. @default process.env */
  env?: Record<string, string | undefined>;
  /** @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** Per request: a probe answers in seconds or the endpoint is not usable. @default 15000 */
  timeoutMs?: number;
}

const ANSWER_CHARS = 300;

/** The server's answer, shortened to one readable line. */
function shortAnswer(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > ANSWER_CHARS ? `${line.slice(0, ANSWER_CHARS)}…` : line === '' ? '(empty body)' : line;
}

function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${path}`;
}

/** The failure of a network call, as a one-line reason (undici hides the useful part in `cause`). */
function networkReason(error: unknown): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'no answer (timed out)';
  const cause = err?.cause;
  if (cause?.code !== undefined) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  if (cause?.message !== undefined) return `${err?.message ?? 'failed'}: ${cause.message}`;
  return err?.message ?? String(error);
}

/**
 * Probes one endpoint before any real call: `GET <baseUrl>/models` (the model must be listed when
 * the server lists models) and one tiny request (a one-token chat completion, or a one-text
 * embedding for embedding endpoints). A wrong URL, an unknown model name or a missing or refused
 * key fails in seconds with an `LlmCallError` naming the URL, the model and the server's answer.
 *
 * @example await probeEndpoint('cli', config.llm.endpoints.cli, 'chat');
 */
export async function probeEndpoint(
  name: string,
  config: Pick<EndpointConfig, 'baseUrl' | 'model' | 'apiKeyEnv'>,
  request: 'chat' | 'embeddings',
  options: ProbeOptions = {},
): Promise<ProbeResult[]> {
  const env = options.env ?? process.env;
  const fetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKeyEnv !== undefined) {
    const key = env[config.apiKeyEnv];
    if (key === undefined || key === '') {
      throw new LlmCallError(
        name,
        `environment variable ${config.apiKeyEnv} (the API key for ${String(config.baseUrl)}, model ${config.model}) is not set`,
        {
          hint: `export ${config.apiKeyEnv}=… or drop --llm-api-key-env / apiKeyEnv for a server that needs no key`,
        },
      );
    }
    headers.authorization = `Bearer ${key}`;
  }
  const urls = Array.isArray(config.baseUrl) ? config.baseUrl : [config.baseUrl];
  const results: ProbeResult[] = [];
  for (const baseUrl of urls) {
    const started = performance.now();
    const fail = (what: string, hint: string, status?: number) =>
      new LlmCallError(name, `probe of ${baseUrl} (model ${config.model}) failed: ${what}`, {
        hint,
        isRetryable: false,
        ...(status === undefined ? {} : { status }),
      });
    const call = async (path: string, init: RequestInit) => {
      try {
        // A busy server (429, 5xx) is asked again twice; anything else is the answer.
        for (let attempt = 0; ; attempt++) {
          const response = await fetch(joinUrl(baseUrl, path), {
            ...init,
            headers,
            signal: AbortSignal.timeout(timeoutMs),
          });
          const text = await response.text();
          const busy = response.status === 429 || response.status >= 500;
          if (!busy || attempt >= 2) return { status: response.status, text };
          const after = Number(response.headers.get('retry-after'));
          await new Promise((done) =>
            setTimeout(
              done,
              Number.isFinite(after) && after > 0 ? Math.min(after * 1000, 5000) : 500 * (attempt + 1),
            ),
          );
        }
      } catch (error) {
        throw fail(
          `${init.method ?? 'GET'} ${joinUrl(baseUrl, path)}: ${networkReason(error)}`,
          'check the URL (scheme, host, port; it usually ends in /v1) and that the server is up',
        );
      }
    };
    const keyHint = (status: number) =>
      status === 401 || status === 403
        ? `the server refused the key: check ${config.apiKeyEnv === undefined ? 'the API key (--llm-api-key-env VAR names the variable holding it)' : `the key in $${config.apiKeyEnv}`}`
        : status === 404
          ? 'check the base URL: it usually ends in /v1'
          : 'check the endpoint and the model name';
    const models = await call('models', { method: 'GET' });
    let listed: string[] = [];
    if (models.status === 401 || models.status === 403) {
      throw fail(
        `GET /models answered HTTP ${models.status}: ${shortAnswer(models.text)}`,
        keyHint(models.status),
        models.status,
      );
    }
    if (models.status >= 200 && models.status < 300) {
      try {
        const body = JSON.parse(models.text) as { data?: Array<{ id?: unknown }> };
        listed = (body.data ?? []).map((m) => String(m.id));
      } catch {
        throw fail(
          `GET /models answered HTTP ${models.status} but not JSON: ${shortAnswer(models.text)}`,
          'this is not an OpenAI-compatible API root: check the base URL (it usually ends in /v1)',
        );
      }
      if (listed.length > 0 && !listed.includes(config.model)) {
        throw fail(
          `the server does not serve model "${config.model}"; it lists: ${listed.slice(0, 20).join(', ')}${listed.length > 20 ? ', …' : ''}`,
          'pass one of the listed names to --llm-model (or llm.endpoints.<name>.model)',
        );
      }
    }
    // Servers without /models (some proxies) are judged by the tiny request alone.
    const body =
      request === 'chat'
        ? {
            model: config.model,
            messages: [{ role: 'user', content: 'ping' }],
            max_tokens: 1,
            temperature: 0,
          }
        : { model: config.model, input: ['ping'] };
    const tiny = await call(request === 'chat' ? 'chat/completions' : 'embeddings', {
      method: 'POST',
      body: JSON.stringify(body),
    });
    if (tiny.status < 200 || tiny.status >= 300) {
      throw fail(
        `POST /${request === 'chat' ? 'chat/completions' : 'embeddings'} answered HTTP ${tiny.status}: ${shortAnswer(tiny.text)}`,
        keyHint(tiny.status),
        tiny.status,
      );
    }
    try {
      const parsed = JSON.parse(tiny.text) as { choices?: unknown; data?: unknown };
      if (!Array.isArray(request === 'chat' ? parsed.choices : parsed.data)) throw new Error('shape');
    } catch {
      throw fail(
        `POST /${request === 'chat' ? 'chat/completions' : 'embeddings'} answered HTTP ${tiny.status} with no ${request === 'chat' ? 'choices' : 'embeddings'}: ${shortAnswer(tiny.text)}`,
        'this is not an OpenAI-compatible API: check the base URL (it usually ends in /v1)',
      );
    }
    results.push({
      endpoint: name,
      baseUrl,
      model: config.model,
      listed,
      request,
      ms: Math.round(performance.now() - started),
    });
  }
  return results;
}

/**
 * Probes every endpoint the given roles map to, once each (an endpoint serving the `embedder`
 * role only is probed with an embedding request). Offline roles need no probe.
 *
 * @example await probeLlmConfig(config.llm, ['realizer', 'judge', 'embedder']);
 */
export async function probeLlmConfig(
  config: Pick<LlmConfig, 'endpoints' | 'roles'>,
  roles: readonly string[],
  options: ProbeOptions = {},
): Promise<ProbeResult[]> {
  const uses = new Map<string, Set<string>>();
  for (const role of roles) {
    const endpoint = config.roles[role];
    if (endpoint === undefined) continue;
    const set = uses.get(endpoint) ?? new Set<string>();
    set.add(role);
    uses.set(endpoint, set);
  }
  const results: ProbeResult[] = [];
  for (const [name, used] of uses) {
    const endpoint = config.endpoints[name];
    if (endpoint === undefined) continue;
    const embeddingsOnly = [...used].every((role) => role === 'embedder');
    results.push(...(await probeEndpoint(name, endpoint, embeddingsOnly ? 'embeddings' : 'chat', options)));
  }
  return results;
}
