import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/redactUrl.js';
import { call } from '../helpers/call.js';
import { probeAppForFile } from '../helpers/probeMethods.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ tenants: ['tenant'] });
const probe = probeAppForFile(t);

interface LogLine {
  level: number;
  reqId?: string;
  msg?: string;
  req?: { url?: string };
}
const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l) as LogLine);

describe('secrets never reach the logs', () => {
  it('logs no API key however it was sent, on any outcome', async () => {
    const key = t.tenant.apiKey;
    const json = { accept: 'application/json' };
    const requests = [
      { url: '/api/v1/getMe', headers: { ...json, authorization: `Bearer ${key}` } },
      { url: `/api/v1/getMe?api_token=${key}` },
      { url: `/api/v1/getMe?page=1&api_token=${key}&x=y` },
      { url: `/api/v1/getMe?API_TOKEN=${key}` },
      { url: `/api/v1/getMe?api%5Ftoken=${key}` },
      { url: `/api/v1/getMe?api_token[]=${key}` },
      { url: `/api/v1/noSuchMethod?api_token=${key}` },
      { url: `/no/such/path?api_token=${key}` },
      { url: `/api/v1/${key}` },
      { url: `/api/v1/%E0%A4%A?api_token=${key}` },
      { url: `/api/v1/${'x'.repeat(200)}?api_token=${key}` },
      { url: `/api/v1/getMe?a[b][c][d][e][f][g]=1&api_token=${key}` },
      { url: '/api/v1/getMe', headers: { authorization: `Bearer ${key}x` } },
      {
        method: 'POST' as const,
        url: '/api/v1/getMe',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `api_token=${key}`,
      },
      {
        method: 'POST' as const,
        url: '/api/v1/getMe',
        headers: { 'content-type': 'application/json' },
        payload: `{"api_token":"${key}"`,
      },
    ];
    const statuses = [];
    for (const r of requests) statuses.push((await t.app.inject(r)).statusCode);
    // the percent-encoded name really is read as api_token (so it matters that it is masked)
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 401, 200]);
    expect(statuses).toContain(404);
    expect(statuses).toContain(400);

    const explode = await probe.app.inject({ url: `/api/v1/explode?api_token=${key}` });
    expect(explode.statusCode).toBe(500);

    const all = [...t.logs, ...probe.logs].join('\n');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(3));
    expect(all).toContain('api_token=[redacted]');
  });

  it('masks api_token in URLs however the name is spelled or encoded', () => {
    expect(redactUrl('/a?x=1&api_token=SECRET&y=2')).toBe('/a?x=1&api_token=[redacted]&y=2');
    expect(redactUrl('/a?api%5Ftoken=SECRET')).toBe('/a?api%5Ftoken=[redacted]');
    expect(redactUrl('/a?api_token%5B%5D=SECRET')).toBe('/a?api_token%5B%5D=[redacted]');
    expect(redactUrl('/a?API_Token=SECRET')).toBe('/a?API_Token=[redacted]');
    expect(redactUrl('/a?api_token=SECRET&api_token=AGAIN')).not.toMatch(/SECRET|AGAIN/);
    expect(redactUrl('/a?%zz=1&api_token=SECRET')).toBe('/a?%zz=1&api_token=[redacted]');
    expect(redactUrl('/a/b?page=2')).toBe('/a/b?page=2');
    expect(redactUrl('/a/b')).toBe('/a/b');
  });

  it('masks anything shaped like one of our keys, even in the path', () => {
    const key = t.tenant.apiKey;
    expect(redactUrl(`/api/v1/${key}`)).toBe('/api/v1/lk_[redacted]');
    expect(redactUrl(`/api/v1/getMe?token=${key}`)).toBe('/api/v1/getMe?token=lk_[redacted]');
  });
});

describe('request ids (a request id on every line)', () => {
  it('puts a request id on every log line and returns it as X-Request-Id', async () => {
    const before = t.logs.length;
    const ok = await call(t.app, 'getMe', {}, { key: t.tenant.apiKey });
    const unauthorized = await call(t.app, 'getMe', {});
    const notFound = await t.app.inject({ url: '/nowhere' });

    const lines = parsed(t.logs.slice(before));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);

    const ids = [ok.headers['x-request-id'], unauthorized.headers['x-request-id']].map(String);
    ids.push(String(notFound.headers['x-request-id']));
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      const mine = lines.filter((l) => l.reqId === id);
      expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    }
  });

  it('logs the request URL, with the token masked', async () => {
    const before = t.logs.length;
    await t.app.inject({ url: `/api/v1/getMe?api_token=${t.tenant.apiKey}&page=3` });
    const incoming = parsed(t.logs.slice(before)).find((l) => l.msg === 'incoming request');
    expect(incoming?.req?.url).toBe('/api/v1/getMe?api_token=[redacted]&page=3');
  });

  it('puts the request id of a 500 on the one error line that explains it', async () => {
    const before = probe.logs.length;
    const res = await probe.app.inject({
      url: '/api/v1/explode',
      headers: { authorization: `Bearer ${t.tenant.apiKey}` },
    });
    const id = String(res.headers['x-request-id']);
    expect(res.json()).toEqual({ error: 'server_error', request_id: id });
    const errorsLogged = parsed(probe.logs.slice(before)).filter((l) => l.level >= 50);
    expect(errorsLogged.map((l) => l.reqId)).toEqual([id]);
  });
});
