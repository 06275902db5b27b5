import { describe, expect, it } from 'vitest';
import { makeTenant } from '../helpers/factories.js';
import { probeAppForFile } from '../helpers/probeMethods.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ tenants: ['tenant'] });
const probe = probeAppForFile(t);

/** A failing validation (strictParams wants name, count, …) with the given headers. */
function invalid(headers: Record<string, string>, method = 'POST' as 'GET' | 'POST') {
  return probe.app.inject({
    method,
    url: '/api/v1/strictParams',
    headers: { authorization: `Bearer ${t.tenant.apiKey}`, ...headers },
    ...(method === 'POST' ? { payload: { count: 'x' } } : {}),
  });
}

describe('validation failures without Accept JSON redirect (the API conventions, decisions)', () => {
  it('redirects with 302 to the Referer', async () => {
    const res = await invalid({ referer: 'https://app.example.test/lists/new?step=2' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://app.example.test/lists/new?step=2');
    expect(res.body).toBe('');
  });

  it('redirects to BASE_URL when there is no Referer', async () => {
    const res = await invalid({});
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://api.test');
  });

  it.each([['text/html'], ['*/*'], ['text/html,application/xhtml+xml;q=0.9']])(
    'redirects a client whose Accept is %s',
    async (accept) => {
      const res = await invalid({ accept }, 'GET');
      expect(res.statusCode).toBe(302);
    },
  );

  it('still counts the request and says so in the rate limit headers', async () => {
    const res = await invalid({});
    expect(res.headers['x-ratelimit-limit']).toBe('120');
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });
});

describe('clients that expect JSON get the 422 (docs/decisions.md: Accept JSON or XMLHttpRequest)', () => {
  it.each([
    ['Accept: application/json', { accept: 'application/json' }],
    ['Accept with JSON among others', { accept: 'text/html, application/json;q=0.9' }],
    ['Accept of a JSON subtype', { accept: 'application/problem+json' }],
    ['X-Requested-With: XMLHttpRequest', { 'x-requested-with': 'XMLHttpRequest' }],
    ['X-Requested-With in lower case', { 'x-requested-with': 'xmlhttprequest' }],
  ])('answers 422 JSON to %s', async (_, headers) => {
    const res = await invalid({ referer: 'https://app.example.test/', ...headers });
    expect(res.statusCode).toBe(422);
    expect(res.headers.location).toBeUndefined();
    expect(res.json()).toMatchObject({ message: expect.any(String), errors: expect.any(Object) });
  });

  it('does not treat other X-Requested-With values as JSON clients', async () => {
    const res = await invalid({ 'x-requested-with': 'fetch' });
    expect(res.statusCode).toBe(302);
  });
});

describe('every other error stays JSON without Accept (decisions)', () => {
  const plain = { referer: 'https://app.example.test/' };

  it('answers a missing key with 401 JSON, not a redirect', async () => {
    const res = await probe.app.inject({ url: '/api/v1/strictParams', headers: plain });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized' });
  });

  it('answers an unknown method with 404 JSON, not a redirect', async () => {
    const res = await probe.app.inject({
      url: '/api/v1/nothingHere',
      headers: { ...plain, authorization: `Bearer ${t.tenant.apiKey}` },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers malformed JSON with 400 JSON, not a redirect', async () => {
    const res = await probe.app.inject({
      method: 'POST',
      url: '/api/v1/strictParams',
      headers: {
        ...plain,
        authorization: `Bearer ${t.tenant.apiKey}`,
        'content-type': 'application/json',
      },
      payload: '{oops',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it('answers a free-plan key with 402 JSON, not a redirect', async () => {
    const free = await makeTenant(t.db, { plan: 'free' });
    const res = await probe.app.inject({
      url: '/api/v1/strictParams',
      headers: { ...plain, authorization: `Bearer ${free.apiKey}` },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'pro_required' });
  });
});
