/**
 * The console's only way to the service: the public API at /api/v1/<method>, POST with a
 * JSON body, the key in the Authorization header. The key lives in this tab's
 * sessionStorage only: never in a URL (which ends up in histories and logs) or a cookie.
 */
const KEY_ITEM = 'listkeeper.console.apiKey';

export const apiKey = {
  get: (): string | null => sessionStorage.getItem(KEY_ITEM),
  set: (key: string) => sessionStorage.setItem(KEY_ITEM, key),
  clear: () => sessionStorage.removeItem(KEY_ITEM),
};

/** dotted parameter name (`data.total`, `fields.0.slug`) → messages, as a 422 lists them */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message?: string; error?: string; code?: string; errors?: FieldErrors },
    readonly retryAfter: string | null,
  ) {
    super(describe(status, body, retryAfter));
  }

  get errors(): FieldErrors {
    return this.body.errors ?? {};
  }
}

function describe(status: number, body: ApiError['body'], retryAfter: string | null): string {
  if (status === 429) return `Too many requests: wait ${retryAfter ?? 'a few'} seconds.`;
  if (status === 401) return 'The API key was not accepted (401).';
  if (status === 402) return 'The account is not on the Pro plan (402).';
  const text = body.message ?? body.error ?? 'request failed';
  return `${text} (${status})`;
}

/** Called once a 401 shows the key is no good any more (regenerated, mistyped). */
let onUnauthorized: () => void = () => undefined;
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * Answers asked for before the views that need them exist (consoleMain.ts starts a list's
 * first page while the bundle is still rendering): the first `call` with the same method
 * and parameters takes the request already on its way instead of sending another.
 */
const early = new Map<string, Promise<unknown>>();

export function callEarly(method: string, params: object): void {
  const answer = send(method, params, apiKey.get());
  answer.catch(() => undefined); // a failure is reported to the view that takes it
  early.set(method + JSON.stringify(params), answer);
}

export function call<T>(method: string, params: object = {}, key = apiKey.get()): Promise<T> {
  const id = method + JSON.stringify(params);
  const started = early.get(id);
  if (started) {
    early.delete(id);
    return started as Promise<T>;
  }
  return send<T>(method, params, key);
}

async function send<T>(method: string, params: object, key: string | null): Promise<T> {
  const response = await fetch(`/api/v1/${encodeURIComponent(method)}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key ?? ''}`,
      accept: 'application/json',
      'content-type': 'application/json',
    },
    body: JSON.stringify(params),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    if (response.status === 401) onUnauthorized();
    throw new ApiError(response.status, body, response.headers.get('retry-after'));
  }
  return body as T;
}

/** An error's text for a place with no field of its own (a banner, a row). */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    const details = Object.values(err.errors).flat();
    return details.length > 0 ? details.join(' ') : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
