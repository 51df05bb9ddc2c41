import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { offlineEmbedding } from '../../llm/offline-backend.js';
import { estimateMessagesTokens, estimateTokens } from '../../llm/token-estimate.js';
import { type FaultKind, type FaultOptions, faultFor } from './faults.js';
import { createPrefixCache } from './prefix-cache.js';
import { modelAnswer } from './responders/index.js';
import { answerForSchema } from './schema-answer.js';

/** A chat request as the `respond` hook sees it. */
export interface FakeChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  /** `json_schema`, `json_object` or `text` (no response_format). */
  format: 'json_schema' | 'json_object' | 'text';
  /** The JSON Schema asked for: from response_format, else found in an instruction message. */
  schema: Record<string, unknown> | undefined;
  /** 0-based arrival number of this request. */
  index: number;
  body: Record<string, unknown>;
  /** How the fake model writes user turns (the server's `dialect` option). */
  dialect?: FakeDialect;
}

/**
 * How the fake realizer writes: `plain` states each fact in the plan's words; `free` writes like
 * a chat model, from its own phrase banks (responders/free-writing.ts), and plants genuine
 * contradictions at `contradictionRate`.
 */
export interface FakeDialect {
  name: 'plain' | 'free';
  contradictionRate: number;
  /**
   * Share of photo and correction rounds written wrong on purpose (free dialect): a photo turn
   * that says what the photo shows, a correction that also takes back a held preference. Its
   * judge knows which (photo-description/1, correction-check/1). @default 0
   */
  labelErrorRate?: number;
}

export interface FakeLlmServerOptions {
  /** @default 0 (any free port) */
  port?: number;
  /** Wait before each answer. @default 0 */
  latencyMs?: number;
  /**
   * Scripted answers: return the message content (a string, or a value that is JSON-encoded), or
   * `undefined` to let the fake model answer (`responders/`: every prompt persona-forge sends gets
   * content that follows it; an unknown prompt gets a schema-shaped answer).
   */
  respond?: (request: FakeChatRequest) => unknown;
  faults?: FaultOptions;
  /** When false, `response_format: json_schema` gets a 400 (tests the fallback chain). @default true */
  supportsJsonSchema?: boolean;
  /** When false, `response_format: json_object` gets a 400 too. @default true */
  supportsJsonObject?: boolean;
  /** Model ids listed by `/v1/models` (any name is answered). @default ['fake'] */
  models?: string[];
  /** Dimension of `/v1/embeddings` vectors (the offline hashed embedding). @default 384 */
  embeddingDimensions?: number;
  /** How user turns are written. @default { name: 'plain', contradictionRate: 0 } */
  dialect?: FakeDialect;
}

export interface FakeLlmStats {
  requests: number;
  chatRequests: number;
  embeddingRequests: number;
  byFormat: Record<'json_schema' | 'json_object' | 'text', number>;
  faults: Record<FaultKind, number>;
  /** Requests answered 400 because the format is switched off. */
  rejectedFormats: number;
  promptTokens: number;
  /** Of `promptTokens`, those the simulated prefix cache served (reported as `cached_tokens`). */
  cachedPromptTokens: number;
  completionTokens: number;
}

export interface FakeLlmServer {
  /** Base URL ending in `/v1`, ready for `baseUrl`. */
  url: string;
  port: number;
  stats: FakeLlmStats;
  close(): Promise<void>;
}

const SCHEMA_MARKER = 'JSON Schema:\n';

/**
 * Starts a fake OpenAI-compatible server on 127.0.0.1: `POST /v1/chat/completions` (with and
 * without `response_format`), `POST /v1/embeddings`, `GET /v1/models`. Answers satisfy the
 * requested JSON Schema (from `response_format` or from a "JSON Schema:" instruction), faults
 * are injected at a seeded rate, and `usage` counts tokens as `estimateTokens` does: per
 * message max(words, ceil(chars / 4)) + 4, with `prompt_tokens_details.cached_tokens` from a
 * simulated prefix cache (prefix-cache.ts: leading 64-character blocks seen before, 16 tokens each).
 *
 * @example
 * const server = await startFakeLlmServer({ faults: { rate: 0.2, retryAfterMs: 5 } });
 * // baseUrl: server.url … then await server.close();
 */
export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const stats: FakeLlmStats = {
    requests: 0,
    chatRequests: 0,
    embeddingRequests: 0,
    byFormat: { json_schema: 0, json_object: 0, text: 0 },
    faults: { '429': 0, '500': 0, hang: 0, truncated: 0, 'non-json': 0, 'schema-invalid': 0 },
    rejectedFormats: 0,
    promptTokens: 0,
    cachedPromptTokens: 0,
    completionTokens: 0,
  };
  const prefixCache = createPrefixCache();
  const timers = new Set<NodeJS.Timeout>();
  let faultIndex = 0;
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    stats.requests++;
    const url = request.url ?? '';
    if (request.method === 'GET' && url.endsWith('/models')) {
      const data = (options.models ?? ['fake']).map((id) => ({
        id,
        object: 'model',
        owned_by: 'fake',
      }));
      return sendJson(response, 200, { object: 'list', data });
    }
    if (request.method !== 'POST' || !(url.endsWith('/chat/completions') || url.endsWith('/embeddings'))) {
      return sendJson(response, 404, {
        error: { message: `no route ${request.method} ${url}`, type: 'not_found' },
      });
    }
    const text = await readBody(request);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return sendJson(response, 400, {
        error: { message: 'request body is not JSON', type: 'invalid_request_error' },
      });
    }
    if ((options.latencyMs ?? 0) > 0) await wait(options.latencyMs as number);
    const fault = faultFor(options.faults, faultIndex++);
    if (fault !== undefined) stats.faults[fault]++;
    if (fault === '429' || fault === '500') return sendFault(response, fault, options.faults as FaultOptions);
    if (fault === 'hang') {
      await Promise.race([
        wait(options.faults?.hangMs ?? 30_000),
        new Promise((resolve) => response.on('close', resolve)),
      ]);
      if (response.destroyed) return;
    }
    const payload = url.endsWith('/embeddings') ? embeddingsPayload(body) : await chatPayload(body, fault);
    if (payload.status !== 200) return sendJson(response, payload.status, payload.json);
    const encoded = JSON.stringify(payload.json);
    if (fault === 'truncated') {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(encoded),
      });
      response.write(encoded.slice(0, Math.floor(encoded.length / 2)));
      response.destroy();
      return;
    }
    if (fault === 'non-json') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    sendJson(response, 200, payload.json, encoded);
  };

  const embeddingsPayload = (body: Record<string, unknown>): { status: number; json: unknown } => {
    stats.embeddingRequests++;
    const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : [];
    const dimensions = options.embeddingDimensions ?? 384;
    let promptTokens = 0;
    const data = input.map((item, index) => {
      const value = String(item);
      promptTokens += estimateTokens(value);
      const vector = offlineEmbedding(value, dimensions);
      const embedding =
        body.encoding_format === 'base64'
          ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
          : vector;
      return { object: 'embedding', index, embedding };
    });
    stats.promptTokens += promptTokens;
    return {
      status: 200,
      json: {
        object: 'list',
        model: body.model,
        data,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
      },
    };
  };

  const chatPayload = async (
    body: Record<string, unknown>,
    fault: FaultKind | undefined,
  ): Promise<{ status: number; json: unknown }> => {
    stats.chatRequests++;
    const messages = (Array.isArray(body.messages) ? body.messages : []) as FakeChatRequest['messages'];
    const responseFormat = body.response_format as
      | { type?: string; json_schema?: { schema?: unknown } }
      | undefined;
    const format =
      responseFormat?.type === 'json_schema' || responseFormat?.type === 'json_object'
        ? responseFormat.type
        : 'text';
    if (
      (format === 'json_schema' && options.supportsJsonSchema === false) ||
      (format === 'json_object' && options.supportsJsonObject === false)
    ) {
      stats.rejectedFormats++;
      return {
        status: 400,
        json: {
          error: {
            message: `response_format ${format} is not supported`,
            type: 'invalid_request_error',
            param: 'response_format',
          },
        },
      };
    }
    stats.byFormat[format]++;
    const schema =
      format === 'json_schema'
        ? (responseFormat?.json_schema?.schema as Record<string, unknown>)
        : schemaInMessages(messages);
    const chatRequest: FakeChatRequest = {
      model: String(body.model),
      messages,
      format,
      schema,
      index: stats.chatRequests - 1,
      body,
      ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    };
    let content: string;
    if (fault === 'schema-invalid') {
      content = JSON.stringify({ unexpected: 'this answer ignores the schema' });
    } else {
      // A scripted answer wins; otherwise the fake model answers as it does when shipped.
      const override = options.respond === undefined ? undefined : await options.respond(chatRequest);
      const scripted = override !== undefined ? override : modelAnswer(chatRequest);
      if (scripted !== undefined)
        content = typeof scripted === 'string' ? scripted : JSON.stringify(scripted);
      else if (schema !== undefined) content = JSON.stringify(answerForSchema(schema));
      else if (format === 'json_object') content = '{}';
      else content = `Fake answer to: ${(messages[messages.length - 1]?.content ?? '').slice(0, 80)}`;
    }
    const promptTokens = estimateMessagesTokens(messages);
    const cachedTokens = prefixCache(messages, promptTokens);
    const completionTokens = estimateTokens(content);
    stats.promptTokens += promptTokens;
    stats.cachedPromptTokens += cachedTokens;
    stats.completionTokens += completionTokens;
    return {
      status: 200,
      json: {
        id: `chatcmpl-fake-${stats.chatRequests}`,
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [
          { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          prompt_tokens_details: { cached_tokens: cachedTokens },
        },
      },
    };
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: { message: String(error), type: 'server_error' } });
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function schemaInMessages(messages: FakeChatRequest['messages']): Record<string, unknown> | undefined {
  for (const message of messages) {
    const at = typeof message.content === 'string' ? message.content.indexOf(SCHEMA_MARKER) : -1;
    if (at < 0) continue;
    try {
      return JSON.parse(message.content.slice(at + SCHEMA_MARKER.length).split('\n')[0] ?? '') as Record<
        string,
        unknown
      >;
    } catch {}
  }
  return undefined;
}

function sendFault(response: ServerResponse, fault: '429' | '500', faults: FaultOptions): void {
  const headers: Record<string, string> = {};
  if (fault === '429') headers['retry-after'] = String(faults.retryAfterSeconds ?? 1);
  if (faults.retryAfterMs !== undefined) headers['retry-after-ms'] = String(faults.retryAfterMs);
  const message = fault === '429' ? 'rate limited (injected fault)' : 'internal error (injected fault)';
  sendJson(
    response,
    Number(fault),
    { error: { message, type: fault === '429' ? 'rate_limit_error' : 'server_error' } },
    undefined,
    headers,
  );
}

function sendJson(
  response: ServerResponse,
  status: number,
  json: unknown,
  encoded?: string,
  headers: Record<string, string> = {},
): void {
  const text = encoded ?? JSON.stringify(json);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
