import { ListkeeperError } from './errors.js';

export interface TransportOptions {
  /** the service's base address, e.g. `https://lists.example.com` (BASE_URL) */
  baseUrl: string;
  apiKey: string;
  /** retries of a `429` after waiting its `Retry-After`; default 3 */
  maxRetries?: number;
  /** longest wait honoured for one `Retry-After`, in seconds; default 60 (spec 8: one window) */
  maxRetryAfterSeconds?: number;
  /** defaults to the global fetch */
  fetch?: typeof fetch;
  /** how to wait before a retry; defaults to a timer (tests pass their own clock) */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POSTs one method call as JSON with the key in the Authorization header (spec 5 rule 1),
 * retrying `429`s after the `Retry-After` the server gives (spec 8).
 */
export function createTransport(options: TransportOptions) {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/api/v1/`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? defaultSleep;
  const maxRetries = options.maxRetries ?? 3;
  const maxWait = options.maxRetryAfterSeconds ?? 60;

  return async function send(method: string, params: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetchImpl(base + encodeURIComponent(method), {
        method: 'POST',
        headers: {
          // Without it a validation failure is a redirect, not a 422 (spec 1 rule 4).
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${options.apiKey}`,
        },
        body: JSON.stringify(params ?? {}),
      });
      if (response.status === 429 && attempt < maxRetries) {
        await response.body?.cancel();
        await sleep(retryAfterSeconds(response.headers.get('retry-after'), maxWait) * 1000);
        continue;
      }
      const body = await readBody(response);
      if (!response.ok) throw new ListkeeperError(response.status, method, body);
      return body;
    }
  };
}

/** Seconds from `Retry-After` (delta-seconds or an HTTP-date); 1 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, max: number): number {
  if (header === null) return 1;
  const seconds = /^\d+$/.test(header.trim())
    ? Number(header.trim())
    : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  if (!Number.isFinite(seconds)) return 1;
  return Math.min(max, Math.max(0, seconds));
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
