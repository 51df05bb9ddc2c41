import type { z } from 'zod';

/**
 * The one interface every stage uses to reach a model. Roles (`realizer`, `judge`, `embedder`,
 * …) map to named endpoints in the pipeline file; a role with no endpoint is served by the
 * deterministic offline backend, and everything it produced is labelled offline.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  /** Stage name the usage is billed to (manifest accounting). */
  stage?: string;
  /** Skip the disk cache for this call (it is still written). */
  noCache?: boolean;
  signal?: AbortSignal;
}

export interface StructuredRequest<T> extends ChatRequest {
  schema: z.ZodType<T>;
  /** Name sent as the json_schema name (letters, digits, _ and -). */
  schemaName: string;
  /**
   * What the offline backend answers for this request. Callers that can run offline provide it
   * (the offline realizer, the heuristic judges); without it an offline call fails clearly.
   */
  offline?: () => T;
  /** Bounded re-asks with the validation error when the answer does not match the schema. @default 2 */
  maxSchemaRetries?: number;
}

export interface Usage {
  calls: number;
  cacheHits: number;
  promptTokens: number;
  /**
   * Of `promptTokens`, those the endpoint reported serving from its prefix cache
   * (`usage.prompt_tokens_details.cached_tokens`: OpenAI, vLLM with
   * `--enable-prompt-tokens-details`, SGLang); 0 when it does not report them (the ledger always
   * sets it; stand-in clients may leave it out).
   */
  cachedPromptTokens?: number;
  completionTokens: number;
  costUsd: number;
  failures: number;
}

export interface ChatResult {
  text: string;
  usage: { promptTokens: number; completionTokens: number };
  cached: boolean;
  offline: boolean;
  model: string;
}

export type SafeResult<T> = { ok: true; value: T; offline: boolean } | { ok: false; error: Error };

export interface LlmClient {
  chat(role: string, request: ChatRequest): Promise<ChatResult>;
  structured<T>(role: string, request: StructuredRequest<T>): Promise<T>;
  /** Result-returning variant for bulk runs: counts rejects instead of throwing. */
  safeStructured<T>(role: string, request: StructuredRequest<T>): Promise<SafeResult<T>>;
  embed(role: string, texts: string[], options?: { stage?: string }): Promise<number[][]>;
  /** True when the role is served by the offline backend. */
  isOffline(role: string): boolean;
  /** Model name serving the role (`offline` for the offline backend). */
  modelFor(role: string): string;
  /** Usage so far, per stage and per endpoint. */
  usage(): { byStage: Record<string, Usage>; byEndpoint: Record<string, Usage>; total: Usage };
}
