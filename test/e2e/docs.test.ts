import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methods } from '../../src/methods/methodRegistry.js';
import { launchChromium } from '../helpers/chromium.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

let origin: string;
let browser: Browser;
let page: Page;
/** every URL the page asked for, and what the console reported as errors */
const requested: string[] = [];
const consoleErrors: string[] = [];

const t = testAppForFile({ tenants: { tenant: { name: 'Docs Reader' } } });
beforeAll(async () => {
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('request', (request) => requested.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(`${origin}/docs`);
  // Swagger UI renders after fetching the document: wait for the first operation.
  await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
});

afterAll(async () => {
  await browser?.close();
});

describe('GET /docs in a real browser (discover and try every method)', () => {
  it('lists every registered method, with GET and POST (the API conventions)', async () => {
    const paths = await page.locator('.opblock-summary-path').allTextContents();
    const shown = paths.map((p) => p.replace(/\u200b/g, '').trim());
    for (const name of methods.keys()) {
      expect(
        shown.filter((p) => p === `/${name}`),
        name,
      ).toHaveLength(2);
    }
    expect(await page.title()).toBe('Listkeeper API');
  });

  it('loads everything from this server: no CDN, no outside request, no CSP violation', () => {
    const outside = requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'));
    expect(outside).toEqual([]);
    expect(requested).toContain(`${origin}/docs/json`);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });

  it('sends a request with the API key from the page and shows the 200 (the authentication rules)', async () => {
    await page.locator('button.authorize').first().click();
    const bearer = page.locator('.auth-container').filter({ hasText: 'bearerAuth' });
    await bearer.locator('input').fill(t.tenant.apiKey);
    await bearer.locator('button.authorize').click();
    await page.locator('.modal-ux button.close-modal').click();

    const operation = page.locator('#operations-Account-getMe');
    await operation.locator('.opblock-summary').click();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${origin}/api/v1/getMe`),
      operation.locator('button.execute').click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().method()).toBe('POST');
    expect(await response.request().headerValue('authorization')).toBe(`Bearer ${t.tenant.apiKey}`);
    expect(await response.json()).toMatchObject({
      data: { id: t.tenant.accountId, name: 'Docs Reader' },
    });

    const status = operation
      .locator('.live-responses-table tr.response .response-col_status')
      .first();
    await expect.poll(() => status.textContent()).toContain('200');
  });
});
