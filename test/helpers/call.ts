import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import qs from 'qs';

/** How the parameters travel: GET query string, JSON body or form body (the API conventions). */
export type Transport = 'query' | 'json' | 'form';
export const TRANSPORTS: Transport[] = ['query', 'json', 'form'];

export interface CallOptions {
  key?: string;
  via?: Transport;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: LightMyRequestResponse['headers'];
  raw: LightMyRequestResponse;
}

/** Calls /api/v1/<method> like a client that expects JSON. */
export async function call(
  app: FastifyInstance,
  method: string,
  params: Record<string, unknown> = {},
  { key, via = 'json', headers = {} }: CallOptions = {},
): Promise<CallResult> {
  const allHeaders: Record<string, string> = { accept: 'application/json', ...headers };
  if (key) allHeaders.authorization = `Bearer ${key}`;
  const url = `/api/v1/${method}`;
  const res =
    via === 'query'
      ? await app.inject({ method: 'GET', url: withQuery(url, params), headers: allHeaders })
      : via === 'form'
        ? await app.inject({
            method: 'POST',
            url,
            headers: { ...allHeaders, 'content-type': 'application/x-www-form-urlencoded' },
            payload: toForm(params),
          })
        : await app.inject({ method: 'POST', url, headers: allHeaders, payload: params });
  const text = res.body;
  return {
    status: res.statusCode,
    body:
      text.length > 0 && /json/.test(String(res.headers['content-type'])) ? JSON.parse(text) : text,
    headers: res.headers,
    raw: res,
  };
}

/** Bracket notation as a client would send it; booleans as true/false text. */
export function toForm(params: Record<string, unknown>): string {
  return qs.stringify(params, { arrayFormat: 'indices', encodeValuesOnly: false });
}

export function withQuery(url: string, params: Record<string, unknown>): string {
  const q = toForm(params);
  return q ? `${url}?${q}` : url;
}
