import { describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { probeAppForFile } from '../helpers/probeMethods.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

const SUNSET = Date.UTC(2099, 0, 1);
let now = Date.UTC(2030, 5, 1);
const t = testAppForFile({
  env: { DEPRECATED_METHODS: '{"getMe":"2099-01-01","echoParams":"2031-02-03"}' },
  clock: () => new Date(now),
  tenants: ['tenant'],
});
const probe = probeAppForFile(t);

describe('before the sunset date (the versioning rules)', () => {
  it('answers as usual with Deprecation: true and Sunset as an HTTP-date', async () => {
    const res = await call(t.app, 'getMe', {}, { key: t.tenant.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(t.tenant.accountId);
    expect(res.headers.deprecation).toBe('true');
    expect(res.headers.sunset).toBe('Thu, 01 Jan 2099 00:00:00 GMT');
  });

  it('carries the headers on every response of the method, errors included', async () => {
    const unauthorized = await call(t.app, 'getMe', {});
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.deprecation).toBe('true');
    expect(unauthorized.headers.sunset).toBe('Thu, 01 Jan 2099 00:00:00 GMT');
  });

  it('gives each method its own date', async () => {
    const res = await call(probe.app, 'echoParams', {}, { key: t.tenant.apiKey });
    expect(res.headers.sunset).toBe('Mon, 03 Feb 2031 00:00:00 GMT');
  });

  it('leaves methods that are not deprecated without the headers', async () => {
    const res = await call(probe.app, 'strictParams', {}, { key: t.tenant.apiKey });
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
  });

  it('still answers on the last millisecond before the date', async () => {
    now = SUNSET - 1;
    try {
      const res = await call(t.app, 'getMe', {}, { key: t.tenant.apiKey });
      expect(res.status).toBe(200);
      expect(res.headers.deprecation).toBe('true');
    } finally {
      now = Date.UTC(2030, 5, 1);
    }
  });
});

describe('from the sunset date on (the versioning rules, the error rules: 410 method_removed)', () => {
  it.each([
    ['on the date itself', SUNSET],
    ['a year later', SUNSET + 365 * 86_400_000],
  ])('answers 410 {error, code: "method_removed"} %s', async (_, at) => {
    now = at;
    try {
      for (const via of ['query', 'json', 'form'] as const) {
        const res = await call(t.app, 'getMe', {}, { key: t.tenant.apiKey, via });
        expect(res.status).toBe(410);
        expect(res.body).toEqual({ error: expect.any(String), code: 'method_removed' });
      }
    } finally {
      now = Date.UTC(2030, 5, 1);
    }
  });

  it('answers 410 whatever the key, and 410 stays JSON without Accept', async () => {
    now = SUNSET;
    try {
      const res = await t.app.inject({ url: '/api/v1/getMe' });
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ code: 'method_removed' });
    } finally {
      now = Date.UTC(2030, 5, 1);
    }
  });

  it('removes only the method past its date', async () => {
    now = Date.UTC(2031, 1, 3);
    try {
      expect((await call(probe.app, 'echoParams', {}, { key: t.tenant.apiKey })).status).toBe(410);
      expect((await call(probe.app, 'getMe', {}, { key: t.tenant.apiKey })).status).toBe(200);
    } finally {
      now = Date.UTC(2030, 5, 1);
    }
  });
});
