import { describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { probeAppForFile } from '../helpers/probeMethods.js';
import { appOnOtherPostgres } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ tenants: ['tenant'] });
const probe = probeAppForFile(t);

const json = { accept: 'application/json' };

function post(payload: string, contentType: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/getMe',
    headers: {
      ...json,
      authorization: `Bearer ${t.tenant.apiKey}`,
      'content-type': contentType,
      ...headers,
    },
    payload,
  });
}

function isJson(res: { headers: Record<string, unknown> }) {
  return /^application\/json/.test(String(res.headers['content-type']));
}

describe('not found (docs/decisions.md: unknown method and unknown path are 404 JSON)', () => {
  it('answers an unknown method name with 404 JSON, before authentication', async () => {
    const res = await call(t.app, 'decodeShortLink', {});
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: 'not_found' });
    expect(isJson(res.raw)).toBe(true);
  });

  it('answers an unknown method name with 404 JSON for a valid key too', async () => {
    const res = await call(t.app, 'getme', {}, { key: t.tenant.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('not_found');
  });

  it('answers an unknown path with 404 JSON that does not echo the URL', async () => {
    const res = await t.app.inject({ url: '/api/v2/getMe?api_token=secret-token-value' });
    expect(res.statusCode).toBe(404);
    expect(isJson(res)).toBe(true);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    expect(res.body).not.toContain('secret-token-value');
  });

  it.each([['constructor'], ['__proto__'], ['toString'], ['hasOwnProperty']])(
    'answers the method name %s, an Object.prototype name, with 404 JSON',
    async (name) => {
      const res = await call(t.app, name, {}, { key: t.tenant.apiKey });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('not_found');
    },
  );

  it('answers an overlong method name with 404 JSON that does not echo it', async () => {
    const name = `m${'x'.repeat(4000)}`;
    const res = await t.app.inject({ url: `/api/v1/${name}`, headers: json });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it('answers a malformed escape in the path with 400 JSON that does not echo it', async () => {
    const res = await t.app.inject({ url: '/api/v1/%E0%A4%A?api_token=secret-token-value' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request' });
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('%E0');
    expect(res.headers['x-request-id']).toBeDefined();
  });

  it.each(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'] as const)(
    'answers %s on a method path with 405 JSON and Allow, before the key is checked',
    async (verb) => {
      for (const url of ['/api/v1/getMe', '/api/v1/noSuchMethod']) {
        const res = await t.app.inject({ method: verb, url });
        expect(res.statusCode).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD, POST');
        expect(isJson(res)).toBe(true);
        expect(res.json()).toEqual({
          error: 'method_not_allowed',
          message: `The ${verb} method is not supported here. Supported methods: GET, HEAD, POST.`,
        });
      }
    },
  );
});

describe('unreadable requests (docs/decisions.md: 400 JSON, oversized 413 JSON)', () => {
  it('answers malformed JSON with 400 JSON', async () => {
    const res = await post('{"name": ', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request' });
  });

  it.each([['[1,2]'], ['"text"'], ['42'], ['true'], ['null']])(
    'answers the JSON body %s, which is not an object, with 400 JSON',
    async (payload) => {
      const res = await post(payload, 'application/json');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'bad_request' });
    },
  );

  it('treats an empty JSON body as no parameters', async () => {
    const res = await post('', 'application/json');
    expect(res.statusCode).toBe(200);
  });

  it('accepts JSON with a charset parameter', async () => {
    const res = await post('{}', 'application/json; charset=utf-8');
    expect(res.statusCode).toBe(200);
  });

  it('answers a JSON body over 1 MiB with 413 JSON', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1_048_576) });
    const res = await post(big, 'application/json');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('answers a form body over 1 MiB with 413 JSON', async () => {
    const res = await post(`name=${'x'.repeat(1_048_576)}`, 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('accepts a body just under the limit', async () => {
    const res = await post(JSON.stringify({ pad: 'x'.repeat(1_048_000) }), 'application/json');
    expect(res.statusCode).toBe(200);
  });

  it.each([['text/plain'], ['multipart/form-data; boundary=x'], ['application/xml']])(
    'answers the unsupported content type %s with 400 JSON',
    async (type) => {
      const res = await post('name=x', type);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'bad_request' });
    },
  );

  it('answers more than 2000 query parameters with 400 JSON', async () => {
    const query = Array.from({ length: 2001 }, (_, i) => `p${i}=1`).join('&');
    const res = await t.app.inject({
      url: `/api/v1/getMe?${query}`,
      headers: { ...json, authorization: `Bearer ${t.tenant.apiKey}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request' });
  });

  it('answers too deeply nested query parameters with 400 JSON', async () => {
    const res = await t.app.inject({
      url: '/api/v1/getMe?a[b][c][d][e][f][g]=1',
      headers: { ...json, authorization: `Bearer ${t.tenant.apiKey}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request' });
  });

  it('answers too many or too deeply nested form fields with 400 JSON', async () => {
    const many = Array.from({ length: 2001 }, (_, i) => `p${i}=1`).join('&');
    const deep = 'a[b][c][d][e][f][g]=1';
    for (const body of [many, deep]) {
      const res = await post(body, 'application/x-www-form-urlencoded');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'bad_request' });
    }
  });

  it('answers too many or too deeply nested query parameters on an unknown path with JSON', async () => {
    const res = await t.app.inject({ url: '/nowhere?a[b][c][d][e][f][g]=1' });
    expect([400, 404]).toContain(res.statusCode);
    expect(isJson(res)).toBe(true);
  });
});

describe('unexpected failures (the error rules: 500 {error, request_id}, logged once)', () => {
  it('answers 500 with only the error code and the request id', async () => {
    const res = await call(probe.app, 'explode', {}, { key: t.tenant.apiKey });
    expect(res.status).toBe(500);
    const requestId = String(res.headers['x-request-id']);
    expect(res.body).toEqual({ error: 'server_error', request_id: requestId });
    expect(res.raw.body).not.toMatch(/no_such_table|select|secret_column|at .*\.ts/i);
  });

  it('logs the failure exactly once, with its cause and request id', async () => {
    const res = await call(probe.app, 'explode', {}, { key: t.tenant.apiKey });
    const requestId = String(res.headers['x-request-id']);
    const lines = probe.logs
      .map((l) => JSON.parse(l) as { level: number; reqId?: string; err?: { message?: string } })
      .filter((l) => l.reqId === requestId && l.level >= 50);
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines[0]?.err)).toContain('no_such_table_for_tests');
  });

  it('answers 500 the same way to a client that does not ask for JSON', async () => {
    const res = await probe.app.inject({
      url: '/api/v1/explode',
      headers: { authorization: `Bearer ${t.tenant.apiKey}` },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ error: 'server_error' });
  });
});

describe('Postgres unreachable (docs/decisions.md: 503 JSON with Retry-After)', () => {
  it('answers 503 with Retry-After, and /readyz says not ready', async () => {
    const { app, close } = appOnOtherPostgres(t, 'postgres://postgres@127.0.0.1:1/nowhere');
    try {
      const res = await call(app, 'getMe', {}, { key: t.tenant.apiKey });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: 'service_unavailable' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.raw.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);

      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ postgres: false });
    } finally {
      await close();
    }
  });
});
