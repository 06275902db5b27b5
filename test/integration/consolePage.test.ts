import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_CONTENT_SECURITY_POLICY,
  registerConsole,
} from '../../src/console/consoleRoutes.js';
import { ensureBuilt } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;

beforeAll(async () => {
  await ensureBuilt(); // the bundle is made by the build
  t = await startTestApp();
}, 180_000);
afterAll(() => t.close());

const assetUrls = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);

describe('GET /console (the page and its bundle)', () => {
  it('answers the page with a strict Content-Security-Policy and no inline script or style', async () => {
    const res = await t.app.inject({ url: '/console' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("style-src 'self'");
    expect(CONSOLE_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.body).not.toMatch(/<style|\sstyle=|\son\w+=/);
    expect(assetUrls(res.body)).toHaveLength(2);
    expect((await t.app.inject({ url: '/console/' })).statusCode).toBe(200);
  });

  it('serves the bundle from this server, gzipped when asked, cacheable for good', async () => {
    const page = await t.app.inject({ url: '/console' });
    for (const url of assetUrls(page.body)) {
      expect(url).toMatch(/^\/console\/assets\/[0-9a-f]{16}\.(js|css)$/);
      const plain = await t.app.inject({ url });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const zipped = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    }
    const unknown = await t.app.inject({ url: '/console/assets/0000000000000000.js' });
    expect(unknown.statusCode).toBe(404);
  });

  it('keeps JS and CSS together within 150 KB gzipped', async () => {
    const page = await t.app.inject({ url: '/console' });
    let total = 0;
    for (const url of assetUrls(page.body)) {
      const res = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      total += res.rawPayload.length;
    }
    expect(total).toBeLessThanOrEqual(150 * 1024);
  });

  it('says how to build it when the bundle is missing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'console-'));
    const app = Fastify();
    registerConsole(app, dir);
    try {
      const res = await app.inject({ url: '/console' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
