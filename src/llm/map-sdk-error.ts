import OpenAI from 'openai';
import { LlmCallError, PersonaForgeError } from '../errors/index.js';

/** An HTTP 200 whose body the SDK could not turn into a completion (truncated, not JSON, no choices). */
export class MalformedResponseError extends Error {}

/** True for the 400/422 a server gives when it does not support the requested `response_format`. */
export function isUnsupportedFormat(error: unknown): boolean {
  return error instanceof OpenAI.APIError && (error.status === 400 || error.status === 422);
}

/**
 * True when the SDK returned (or threw while reading) a body that is not a usable answer: the
 * SDK does not retry these, so the client re-asks within its bounded bad-answer budget.
 */
export function isMalformedResponse(error: unknown): boolean {
  if (error instanceof MalformedResponseError || error instanceof SyntaxError) return true;
  // undici reports a body cut short as a TypeError ("terminated") after the headers arrived.
  return error instanceof TypeError && !(error instanceof OpenAI.APIError);
}

/**
 * Converts whatever the SDK threw (after its own retries) into an `LlmCallError` naming the
 * endpoint, with the HTTP status and whether a later rerun may succeed.
 *
 * @example throw toLlmCallError('main', error);
 */
export function toLlmCallError(endpoint: string, error: unknown): PersonaForgeError {
  if (error instanceof PersonaForgeError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LlmCallError(endpoint, 'timed out after all retries', {
      cause: error,
      isRetryable: true,
      hint: 'raise timeoutMs or lower maxConcurrency for this endpoint',
    });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const retryable =
      status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    return new LlmCallError(endpoint, `HTTP ${status ?? 'connection error'}: ${error.message}`, {
      cause: error,
      isRetryable: retryable,
      ...(status === undefined ? {} : { status }),
      hint:
        status === 401 || status === 403
          ? 'check the API key variable named by apiKeyEnv'
          : status === 404
            ? 'check baseUrl (it usually ends in /v1) and the model name'
            : 'check the endpoint is up; the call was retried maxRetries times',
    });
  }
  return new LlmCallError(endpoint, (error as Error)?.message ?? String(error), {
    cause: error,
    isRetryable: true,
  });
}
