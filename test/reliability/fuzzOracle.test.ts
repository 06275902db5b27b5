import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { problemsWith } from './fuzz/checks.js';
import type { FuzzRequest } from './fuzz/request.js';

/**
 * The fuzzer is only as good as its judge: these cases show that problemsWith refuses
 * what the fuzzer must never let pass (a fuzz run that can never fail proves nothing).
 */
const request = (over: Partial<FuzzRequest> = {}): FuzzRequest => ({
  method: 'getListSchema',
  via: 'json',
  key: 'owner',
  params: {},
  ...over,
});

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    statusCode: status,
    body: body === undefined ? '' : JSON.stringify(body),
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  } as unknown as LightMyRequestResponse;
}

const judge = (r: FuzzRequest, res: LightMyRequestResponse, sent = '') =>
  problemsWith(r, res, sent, false);

describe('the fuzz oracle', () => {
  it('accepts answers in the spec’s shapes', () => {
    const notFound = {
      message: 'List not found.',
      error: 'not_found',
      errors: { schema_id: ['List not found.'] },
    };
    expect(judge(request(), answer(404, notFound))).toEqual([]);
    expect(judge(request(), answer(422, { message: 'm', errors: { schema_id: ['m'] } }))).toEqual(
      [],
    );
    expect(judge(request(), answer(200, { data: {} }))).toEqual([]);
    expect(judge(request({ key: 'wrong' }), answer(401, { error: 'unauthorized' }))).toEqual([]);
    const limited = answer(429, { message: 'Too Many Attempts.' }, { 'retry-after': '12' });
    expect(judge(request(), limited)).toEqual([]);
  });

  it('refuses a 5xx and a status the method cannot answer', () => {
    expect(judge(request(), answer(500, { error: 'server_error', request_id: 'x' }))).not.toEqual(
      [],
    );
    expect(judge(request(), answer(503, { error: 'service_unavailable' }))).not.toEqual([]);
    expect(judge(request({ method: 'getContacts' }), answer(404, { error: 'x' }))).not.toEqual([]);
    expect(judge(request(), answer(201, { data: {} }))).not.toEqual([]);
  });

  it('refuses a success for a wrong key, a 400 for well-formed JSON, anything but 413 when oversized', () => {
    expect(judge(request({ key: 'wrong' }), answer(200, { data: {} }))).not.toEqual([]);
    // a valid key is never 401 or 402, and 403 only where the method may answer it
    expect(judge(request(), answer(401, { error: 'unauthorized' }))).not.toEqual([]);
    expect(judge(request(), answer(402, { error: 'x', code: 'pro_required' }))).not.toEqual([]);
    const forbidden = answer(403, { message: 'm', error: 'forbidden' });
    expect(judge(request({ method: 'getContacts' }), forbidden)).not.toEqual([]);
    expect(judge(request({ method: 'getContacts', key: 'blocked' }), forbidden)).toEqual([]);
    // …unless the request itself lost the key: a second api_token in the query is no key
    const unauthorized = answer(401, { error: 'unauthorized' });
    const twoTokens = request({ key: 'owner-token', via: 'query' });
    expect(judge(twoTokens, unauthorized, 'api_token=x&api_token=lk_y')).toEqual([]);
    expect(judge(twoTokens, unauthorized, 'api_token=lk_y')).not.toEqual([]);
    expect(judge(request(), answer(400, { error: 'bad_request', message: 'm' }))).not.toEqual([]);
    expect(
      judge(request({ oversize: true }), answer(422, { message: 'm', errors: { a: ['m'] } })),
    ).not.toEqual([]);
  });

  it('refuses bodies outside the error rules’s shapes', () => {
    expect(judge(request(), answer(404, { error: 'not_found' }))).not.toEqual([]);
    expect(judge(request(), answer(422, { message: 'm', errors: {} }))).not.toEqual([]);
    expect(judge(request(), answer(422, { message: 'm', errors: { a: 'm' } }))).not.toEqual([]);
    expect(
      judge(request({ key: 'none' }), answer(401, { error: 'unauthorized', why: 'x' })),
    ).not.toEqual([]);
    expect(judge(request(), answer(429, { message: 'Too Many Attempts.' }))).not.toEqual([]);
  });

  it('refuses stack traces, SQL and server paths that the client did not send itself', () => {
    const leaks = [
      'TypeError: x\n    at handler (/work/main/src/http/apiRoute.ts:37:21)',
      'Failed query: select "id" from "list_schemas" where "id" = $1',
      'invalid input syntax for type uuid: "x"',
      'ENOENT: /usr/lib/node_modules/x',
    ];
    for (const leak of leaks) {
      const res = answer(422, { message: leak, errors: { a: [leak] } });
      expect(judge(request(), res), leak).not.toEqual([]);
    }
    const echoed = 'select * from accounts where 1=1';
    const res = answer(422, { message: 'm', errors: { [echoed]: ['m'] } });
    expect(judge(request(), res, `{"${echoed}":1}`)).toEqual([]);
  });
});
