import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import qs from 'qs';
import { BODY_LIMIT_BYTES } from '../../../src/http/errorHandler.js';
import type { Transport } from '../../helpers/call.js';
import { Raw } from './hostile.js';

/** How the fuzzer authenticates one request. */
export type KeyChoice =
  'owner' | 'owner-token' | 'other' | 'free' | 'blocked' | 'wrong' | 'none' | { token: unknown };

export interface FuzzRequest {
  method: string;
  via: Transport;
  key: KeyChoice;
  params: Record<string, unknown>;
  /** replaces the JSON body: malformed text, or JSON that is not an object */
  rawBody?: string;
  /** appended to a query string / form body as it stands (deep brackets, 10,000 parameters) */
  rawSuffix?: string;
  /** pad the body to just over the size limit */
  oversize?: boolean;
}

export interface Keys {
  owner: string;
  other: string;
  free: string;
  blocked: string;
}

/** A JSON text of `value`, Raw values written verbatim; `undefined` members are left out. */
export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.json;
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : toJson(v))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const parts: string[] = [];
    for (const k of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) parts.push(`${JSON.stringify(k)}:${toJson(v)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** True when the JSON text of `value` is not valid JSON (a malformed Raw inside). */
export function hasMalformed(value: unknown): boolean {
  if (value instanceof Raw) return value.malformed;
  if (typeof value === 'object' && value !== null)
    return Object.keys(value).some((k) => hasMalformed((value as Record<string, unknown>)[k]));
  return false;
}

/** The same tree with Raw values as their text, for qs. */
function asText(value: unknown): unknown {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return value.map(asText);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) {
      Object.defineProperty(out, k, {
        value: asText((value as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function keyOf(choice: KeyChoice, keys: Keys): { header?: string; token?: unknown } {
  if (typeof choice === 'object') return { token: choice.token };
  switch (choice) {
    case 'owner':
      return { header: keys.owner };
    case 'owner-token':
      return { token: keys.owner };
    case 'other':
      return { header: keys.other };
    case 'free':
      return { header: keys.free };
    case 'blocked':
      return { header: keys.blocked };
    case 'wrong':
      return { header: 'lk_' + 'A'.repeat(43) };
    case 'none':
      return {};
  }
}

export interface Sent {
  /** everything the client put on the wire, to tell echoes from leaks */
  text: string;
  res: LightMyRequestResponse;
}

/** Sends one fuzzed request through app.inject, as a client that expects JSON. */
export async function send(app: FastifyInstance, r: FuzzRequest, keys: Keys): Promise<Sent> {
  const { header, token } = keyOf(r.key, keys);
  const params = token === undefined ? r.params : { ...r.params, api_token: token };
  const headers: Record<string, string> = { accept: 'application/json' };
  if (header) headers.authorization = `Bearer ${header}`;
  const url = `/api/v1/${r.method}`;

  if (r.via === 'json') {
    let body = r.rawBody ?? toJson(params);
    if (r.oversize) body = padJson(body);
    headers['content-type'] = 'application/json';
    const res = await app.inject({ method: 'POST', url, headers, payload: body });
    return { text: `${body}\n${textsOf(params).join('\n')}`, res };
  }
  let text = qs.stringify(asText(params), { arrayFormat: 'indices' });
  if (r.rawSuffix) text += (text ? '&' : '') + r.rawSuffix;
  if (r.via === 'form') {
    if (r.oversize) text += '&pad=' + 'x'.repeat(BODY_LIMIT_BYTES + 1 - text.length);
    headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await app.inject({ method: 'POST', url, headers, payload: text });
    return { text: safeDecode(text), res };
  }
  const res = await app.inject({ method: 'GET', url: text ? `${url}?${text}` : url, headers });
  return { text: safeDecode(text), res };
}

/** A JSON object body grown to just over the limit by a padding member. */
function padJson(body: string): string {
  const trimmed = body.trim();
  const isObject = trimmed.startsWith('{') && trimmed.endsWith('}');
  const inner = isObject ? trimmed.slice(1, -1) : `"v":${trimmed}`;
  const head = `{"pad":"`;
  const tail = `"${inner ? ',' : ''}${inner}}`;
  const pad = Math.max(1, BODY_LIMIT_BYTES + 1 - Buffer.byteLength(head + tail));
  return head + 'x'.repeat(pad) + tail;
}

/** Every key and text of the parameters (the JSON body holds them escaped). */
function textsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (v instanceof Raw) out.push(v.text);
  else if (typeof v === 'object' && v !== null)
    for (const k of Object.keys(v)) {
      out.push(k);
      textsOf((v as Record<string, unknown>)[k], out);
    }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
