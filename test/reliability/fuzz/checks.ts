import type { LightMyRequestResponse } from 'fastify';
import type { FuzzRequest } from './request.js';

/**
 * What the documentation allows each method to answer (docs/api.md, docs/api-conventions.md) besides the statuses every
 * method shares: 401/402/403 from authentication (the authentication rules), 429 (the limits), and 400 / 413 for
 * an unreadable or oversized request (docs/decisions.md).
 */
export const METHOD_STATUSES: Record<string, readonly number[]> = {
  getMe: [200],
  getListSchemas: [200, 422],
  getListSchema: [200, 403, 404, 422],
  createListSchema: [201, 403, 422],
  deleteListSchema: [204, 403, 404, 422],
  addListSchemaField: [204, 403, 404, 422],
  deleteListSchemaField: [204, 403, 404, 422],
  getListItems: [200, 403, 404, 422],
  addListItem: [201, 403, 404, 422],
  updateListItem: [200, 403, 404, 422],
  deleteListItem: [204, 403, 404, 422],
  getContacts: [200, 422],
  getNumberOfContacts: [200, 422],
  createOrUpdateContact: [200, 201, 404, 422],
  addListItems: [200, 201, 403, 404, 422],
  updateListItems: [200, 403, 404, 422],
  deleteListItems: [200, 204, 403, 404, 422],
  createOrUpdateContacts: [200, 404, 422],
};

/** Which lookup key a 404 of the method names (getListSchema, updateListItem, createOrUpdateContact). */
const NOT_FOUND_KEY: Record<string, string> = {
  getListSchema: 'schema_id',
  deleteListSchema: 'schema_id',
  addListSchemaField: 'schema_id',
  deleteListSchemaField: 'schema_id',
  getListItems: 'schema_id',
  addListItem: 'schema_id',
  updateListItem: 'item_id',
  deleteListItem: 'item_id',
  createOrUpdateContact: 'bot_id',
  addListItems: 'schema_id',
  updateListItems: 'schema_id',
  deleteListItems: 'schema_id',
  createOrUpdateContacts: 'bot_id',
};

/** Stack frames, SQL and server paths: none may reach a client. */
const LEAKS: RegExp[] = [
  /\bat [\w$.<>]+ \(.*:\d+:\d+\)/,
  /\bat (async )?file:\/\//,
  /(\/work\/|\/home\/|\/usr\/|\/root\/|node_modules|\bsrc\/[\w/]+\.ts|dist\/[\w/]+\.js)/,
  /\b(select|insert into|update|delete from)\b[\s\S]{0,200}\b(from|where|values|set)\b/i,
  /\b(syntax error at|relation "|column "|violates|duplicate key|invalid input syntax|SQLSTATE|pg_catalog|drizzle|ZodError|TypeError|RangeError|ReferenceError|Cannot read prop)/i,
];

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrArray = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string');
const keysWithin = (o: Json, allowed: string[]) => Object.keys(o).every((k) => allowed.includes(k));

/** Every problem with one answer; an empty list means it is what the documentation allows. */
export function problemsWith(
  r: FuzzRequest,
  res: LightMyRequestResponse,
  sentText: string,
  expectMalformed: boolean,
): string[] {
  const problems: string[] = [];
  const status = res.statusCode;
  const allowed = new Set([...METHOD_STATUSES[r.method]!, 429]);
  if (r.via !== 'json' || expectMalformed || r.rawBody !== undefined) allowed.add(400);
  if (r.oversize) allowed.add(413);
  // authentication answers first, whatever the parameters (the authentication rules): a valid key is
  // never 401/402, and 403 only where the method itself may answer it
  const auth = typeof r.key === 'object' ? 'token' : r.key;
  // the token is lost when a raw JSON body replaces the parameters, or when a bracket key
  // (`[api_token]=…`, from an empty key) gives the query a second api_token: qs makes both an
  // array, which is no key
  const tokens = sentText.match(/api_token/g)?.length ?? 0;
  const tokenLost = r.rawBody !== undefined || (r.via !== 'json' && tokens > 1);
  if (auth === 'owner-token' && tokenLost) allowed.add(401);
  const byKey: Record<string, number[]> = {
    wrong: [401],
    none: [401],
    token: [401],
    free: [402],
    blocked: [403],
  };
  const forced = byKey[auth];
  if (forced) {
    for (const s of [...allowed]) if (s !== 400 && s !== 413) allowed.delete(s);
    for (const s of forced) allowed.add(s);
  }
  if (expectMalformed && !r.oversize && r.via === 'json') {
    for (const s of [...allowed]) if (s !== 400) allowed.delete(s);
  }
  if (r.oversize) for (const s of [...allowed]) if (s !== 413) allowed.delete(s);
  if (!allowed.has(status)) problems.push(`status ${status} not in [${[...allowed].join(', ')}]`);

  const text = res.body;
  if (status === 204) {
    if (text !== '') problems.push('204 with a body');
    return problems;
  }
  if (!/^application\/json/.test(String(res.headers['content-type'])))
    problems.push(`content-type ${String(res.headers['content-type'])}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push('body is not JSON');
    return problems;
  }
  if (!isObj(body)) return [...problems, 'body is not an object'];
  problems.push(...shapeProblems(r.method, status, body, res));
  for (const leak of leaksIn(stringsOf(body).join('\n'), sentText)) problems.push(`leak: ${leak}`);
  return problems;
}

function shapeProblems(method: string, status: number, b: Json, res: LightMyRequestResponse) {
  const p: string[] = [];
  const need = (cond: boolean, what: string) => cond || p.push(`${status} body: ${what}`);
  switch (status) {
    case 200:
    case 201:
      if (method === 'getNumberOfContacts')
        need(Number.isInteger(b.count) && Object.keys(b).length === 1, '{count}');
      else need('data' in b, 'has data');
      break;
    case 400:
    case 413:
      need(typeof b.error === 'string' && typeof b.message === 'string', '{error, message}');
      need(keysWithin(b, ['error', 'message']), 'only error and message');
      break;
    case 401:
      need(JSON.stringify(b) === '{"error":"unauthorized"}', '{"error":"unauthorized"}');
      break;
    case 402:
      need(typeof b.error === 'string' && b.code === 'pro_required', '{error, code}');
      break;
    case 403:
      need(typeof b.error === 'string', 'has error');
      need(keysWithin(b, ['error', 'message']), '{error} or {message, error}');
      break;
    case 404: {
      need(typeof b.error === 'string' || typeof b.message === 'string', '{error} or {message}');
      need(keysWithin(b, ['error', 'message', 'errors']), 'no other keys');
      const key = NOT_FOUND_KEY[method];
      if (key) need(isObj(b.errors) && isStrArray(b.errors[key]), `errors.${key}`);
      break;
    }
    case 422:
      need(typeof b.message === 'string', 'message');
      need(
        isObj(b.errors) &&
          Object.keys(b.errors).length > 0 &&
          Object.values(b.errors).every(isStrArray),
        'errors: {key: [text]}',
      );
      need(keysWithin(b, ['message', 'errors']), 'only message and errors');
      break;
    case 429:
      need(JSON.stringify(b) === '{"message":"Too Many Attempts."}', 'spec body');
      need(/^\d+$/.test(String(res.headers['retry-after'])), 'integer Retry-After');
      break;
  }
  return p;
}

/** Every key and text in a parsed answer. */
function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (isObj(v))
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      stringsOf(x, out);
    }
  return out;
}

/** Leak patterns in the answer's texts that are not simply the client's own input echoed. */
function leaksIn(text: string, sent: string): string[] {
  const found: string[] = [];
  for (const pattern of LEAKS) {
    const m = pattern.exec(text);
    if (m && !sent.includes(m[0])) found.push(m[0].slice(0, 120));
  }
  return found;
}

/** The names on the global prototypes; the fuzzer compares them after every request. */
export function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
}
