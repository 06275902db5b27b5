import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { ensureBuilt, ROOT } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';

/** Set to write the README's pictures of the grid and the filter builder into docs/console/. */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';
const XSS = '<img src=x onerror=alert(1)>';

let t: TestApp;
let tenant: Tenant;
let origin: string;
let browser: Browser;
let page: Page;
const requested: string[] = [];
const consoleErrors: string[] = [];
const dialogs: string[] = [];
/** every API call the page made: method name → parameters */
const calls: { method: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  await ensureBuilt(); // the console's bundle is made by the build
  t = await startTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000' },
  });
  tenant = await makeTenant(t.db, { name: 'Console User' });
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('request', (request) => {
    requested.push(request.url());
    const match = /\/api\/v1\/(\w+)$/.exec(request.url());
    if (match) calls.push({ method: match[1]!, body: request.postDataJSON() ?? {} });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const grid = () => page.locator('table.grid');
const gridRows = () => grid().locator('tbody tr');
/** The texts of one column of the grid (1 = first field, after the selection box). */
const column = async (n: number) =>
  (
    await gridRows()
      .locator(`td:nth-child(${n + 1})`)
      .allTextContents()
  ).map((text) => text.replace(/\u00a0/g, ' '));

async function addRecord(values: Record<string, string>) {
  await page.getByRole('button', { name: 'Add record' }).click();
  for (const [field, value] of Object.entries(values)) {
    const cell = page.getByLabel(`${field} of the new record`);
    if ((await cell.evaluate((e) => e.tagName)) === 'SELECT') await cell.selectOption(value);
    else await cell.fill(value);
  }
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect.poll(() => page.locator('tr.editing').count()).toBe(0);
}

describe('/console in a real browser (issue 32)', () => {
  it('signs in with an API key kept in sessionStorage and sent as a header only; shows getMe', async () => {
    await page.goto(`${origin}/console`);
    await page.getByLabel('API key').fill('lk_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('401');

    await page.getByLabel('API key').fill(tenant.apiKey);
    const [me] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/v1/getMe') && r.status() === 200),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(await me.request().headerValue('authorization')).toBe(`Bearer ${tenant.apiKey}`);
    const account = page.getByLabel('Signed in as');
    await expect.poll(() => account.textContent()).toContain('Console User');
    expect(await account.textContent()).toContain(`account #${tenant.accountId}`);
    expect(await page.evaluate<string[]>('Object.values(sessionStorage)')).toEqual([tenant.apiKey]);
    expect(await page.evaluate<string>('document.cookie')).toBe('');
    expect(requested.filter((url) => url.includes(tenant.apiKey))).toEqual([]);
  });

  it('creates a list with typed fields; a refused slug is shown at its field', async () => {
    await page.getByRole('button', { name: 'New list' }).click();
    const form = page.getByRole('form', { name: 'New list' });
    await form.getByLabel('List name').fill('Orders');
    await form.getByLabel('Bot ID').fill(String(tenant.botId));
    const field = (n: number) => form.getByRole('group', { name: `Field ${n}` });
    await field(1).getByLabel('Name').fill('Customer');
    await field(1).getByLabel('Slug').fill('id'); // reserved: the API refuses it
    await field(1).getByLabel('Required').check();
    await form.getByRole('button', { name: 'Add another field' }).click();
    await field(2).getByLabel('Name').fill('Total');
    await field(2).getByLabel('Type').selectOption('money');
    await field(2).getByLabel('Currency (ISO 4217)').fill('EUR');
    await form.getByRole('button', { name: 'Add another field' }).click();
    await field(3).getByLabel('Name').fill('Paid');
    await field(3).getByLabel('Type').selectOption('bool');
    await form.getByRole('button', { name: 'Create list' }).click();

    const slug = field(1).getByLabel('Slug');
    await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
    const errorId = await slug.getAttribute('aria-describedby');
    expect(await page.locator(`#${errorId}`).textContent()).toMatch(/slug/i);

    await slug.fill('customer');
    await form.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    const headers = await grid().locator('thead th').allTextContents();
    expect(headers.slice(1, 4).map((h) => h.replace(/[▲▼↕]/g, '').trim())).toEqual([
      'Customer',
      'Total (EUR)',
      'Paid',
    ]);
  });

  it('adds records inline and renders every value as text (money, bools, markup)', async () => {
    await addRecord({ Customer: 'Ada', Total: '42.5', Paid: 'true' });
    await addRecord({ Customer: 'Grace', Total: '9.99' });
    await addRecord({ Customer: XSS, Total: '120', Paid: 'false' });
    await expect.poll(() => gridRows().count()).toBe(3);
    expect(await column(1)).toEqual(['Ada', 'Grace', XSS]);
    expect(await column(2)).toEqual(['EUR 42.50', 'EUR 9.99', 'EUR 120.00']);
    expect(await column(3)).toEqual(['yes', '', 'no']);
    expect(await grid().locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(await page.locator('.page-status').textContent()).toContain('3 in all');
  });

  it('filters with the operators of each field type, shows the call as curl, and sorts', async () => {
    await page.getByRole('button', { name: /^Filters/ }).click();
    const builder = page.getByRole('form', { name: 'Filters' });
    await builder.getByRole('button', { name: 'Add condition' }).click();
    const condition = builder.getByRole('group', { name: 'Condition 1' });
    const operators = () => condition.getByLabel('Operator').locator('option').allTextContents();
    expect(await operators()).toEqual(['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'not like']);
    await condition.getByLabel('Field', { exact: true }).selectOption('total');
    expect(await operators()).toEqual(['=', '!=', '<>', '<', '<=', '>', '>=']);
    await condition.getByLabel('Field', { exact: true }).selectOption('paid');
    expect(await operators()).toEqual(['=', '!=', '<>']);
    await condition.getByLabel('Field', { exact: true }).selectOption('total');
    await condition.getByLabel('Operator').selectOption('>=');
    await condition.getByLabel('Value for Total').fill('10');
    await builder.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => column(1)).toEqual(['Ada', XSS]);
    await page.locator('details.curl summary').click();
    if (SCREENSHOTS) await page.screenshot({ path: path.join(ROOT, 'docs/console/filter.png') });
    const last = calls.filter((c) => c.method === 'getListItems').at(-1);
    expect(last?.body.filters).toEqual({ total: '>=,10' });

    const curl = await page.locator('details.curl code').textContent();
    expect(curl).toContain(`--data-urlencode 'filters[total]=>=,10'`);
    expect(curl).toContain('Authorization: Bearer $API_KEY');
    expect(curl).not.toContain(tenant.apiKey);

    const sortTotal = page.getByRole('button', { name: /^Total/ });
    await sortTotal.click();
    await expect.poll(() => column(1)).toEqual(['Ada', XSS]);
    await sortTotal.click();
    await expect.poll(() => column(1)).toEqual([XSS, 'Ada']);
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('Total');
    expect(calls.filter((c) => c.method === 'getListItems').at(-1)?.body.order_by).toBe(
      'total,desc',
    );

    await builder.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => gridRows().count()).toBe(3);
    await page.locator('details.curl summary').click();
    await page.getByRole('button', { name: /^Filters/ }).click();
    if (SCREENSHOTS) await page.screenshot({ path: path.join(ROOT, 'docs/console/grid.png') });
  });

  it('edits a record inline: the 422 is shown on the cell, then the fix is saved', async () => {
    await page.getByRole('button', { name: /^Total/ }).click(); // ascending again: Grace, Ada, XSS
    await expect.poll(() => column(1)).toEqual(['Grace', 'Ada', XSS]);
    await gridRows().nth(0).getByRole('button', { name: /^Edit/ }).click();
    const total = page.locator('tr.editing').getByLabel(/^Total of record/);
    await total.fill('not money');
    await page.locator('tr.editing').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => total.getAttribute('aria-invalid')).toBe('true');
    const errorId = await total.getAttribute('aria-describedby');
    expect(await page.locator(`#${errorId}`).textContent()).toContain('must be an amount of money');

    await total.fill('15');
    await total.press('Enter');
    await expect.poll(() => page.locator('tr.editing').count()).toBe(0);
    await expect.poll(() => column(2)).toEqual(['EUR 15.00', 'EUR 42.50', 'EUR 120.00']);
  });

  it('deletes one record after a confirmation, and the selected ones with deleteListItems', async () => {
    await gridRows()
      .nth(0)
      .getByRole('button', { name: /^Delete record/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete records' });
    expect(await dialog.textContent()).toContain('Orders');
    await dialog.getByRole('button', { name: 'Delete the record' }).click();
    await expect.poll(() => gridRows().count()).toBe(2);

    await page.getByLabel('Select every record on this page').check();
    await page.getByRole('button', { name: 'Delete selected (2)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete 2 records' }).click();
    await expect.poll(() => gridRows().count()).toBe(0);
    const batch = calls.filter((c) => c.method === 'deleteListItems');
    expect(batch).toHaveLength(1);
    expect(batch[0]?.body.item_ids).toHaveLength(2);
  });

  it('deletes a list after a confirmation naming it', async () => {
    await page.getByRole('link', { name: '← All lists' }).click();
    await page.getByRole('button', { name: 'Delete list Orders' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete list' });
    expect(await dialog.textContent()).toContain('Delete the list Orders');
    await dialog.getByRole('button', { name: 'Delete “Orders”' }).click();
    await page.getByText('No lists yet.').waitFor();
  });

  it('creates a webhook and shows its secret once, with a copy button', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL (http or https, public address)').fill('http://127.0.0.1:9/hook');
    await page.getByLabel('list_item.created').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = page.getByLabel('Signing secret');
    await expect.poll(() => secret.inputValue()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy secret' }).waitFor();
    const row = grid().locator('tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('http://127.0.0.1:9/hook');
    expect(await row.textContent()).toContain('list_item.created');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await secret.count()).toBe(0);
  });

  it('pages contacts of a bot with their count, and shows one in detail', async () => {
    for (const [id, name] of [
      [101, 'Linus'],
      [102, 'Margaret'],
    ] as const) {
      const made = await call(
        t.app,
        'createOrUpdateContact',
        { bot_id: tenant.botId, messenger: 'telegram', telegram_id: id, name, tags: ['vip'] },
        { key: tenant.apiKey },
      );
      expect(made.status).toBe(201);
    }
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByLabel('Bot ID (empty: every bot)').fill(String(tenant.botId));
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByText(/^\d+ contacts?$/).textContent()).toBe('2 contacts');
    expect(await grid().locator('tbody tr td:nth-child(2)').allTextContents()).toEqual([
      'Linus',
      'Margaret',
    ]);
    await grid()
      .getByRole('button', { name: /^Details of contact/ })
      .first()
      .click();
    const detail = page.getByRole('region', { name: /^Contact #\d+: Linus/ });
    expect(await detail.textContent()).toContain('telegram');
    expect(await detail.textContent()).toContain('vip');
  });

  it('tails the change feed newest first, narrowed by type', async () => {
    await page.getByRole('link', { name: 'Changes' }).click();
    const types = () => page.locator('.tail .change-type').allTextContents();
    await expect.poll(types).toContain('list_schema.deleted');
    const all = await types();
    expect(all[0]).toBe('contact.created'); // the newest change
    expect(all.at(-1)).toBe('list_schema.created'); // the oldest
    await page.getByLabel('list_item.updated').check();
    await expect.poll(types).toEqual(['list_item.updated']);
  });

  it('pauses the tail while scrolled down, and catches up from its cursor on return', async () => {
    const list = await createListViaApi(t.app, tenant, [
      { name: 'Step', slug: 'step', type: 'number' },
    ]);
    const added = await call(
      t.app,
      'addListItems',
      { schema_id: list.id, items: Array.from({ length: 80 }, (_, i) => ({ step: i })) },
      { key: tenant.apiKey },
    );
    expect(added.status).toBe(201);
    await page.getByLabel('list_item.updated').uncheck();
    await page.getByLabel('list_item.created').check();
    const types = () => page.locator('.tail .change-type').allTextContents();
    // Each filter change empties the tail once rendered; scrolling the previous filter's
    // rows would be undone by that (the emptied list scrolls back to the top), so wait
    // for the new filter's rows alone.
    await expect
      .poll(async () => {
        const shown = await types();
        return shown.length >= 80 && shown.every((type) => type === 'list_item.created');
      })
      .toBe(true);
    const tail = page.getByRole('list', { name: 'Changes, newest first' });
    await tail.evaluate((e) => {
      e.scrollTop = 400;
      e.dispatchEvent(new Event('scroll'));
    });
    const status = page.getByRole('status').filter({ hasText: /Paused|Live|Catching/ });
    await expect.poll(() => status.textContent()).toContain('Paused while scrolled');
    const polls = () => calls.filter((c) => c.method === 'getChanges').length;
    const before = await polls();
    const shown = (await types()).length;
    await addItemViaApi(t.app, tenant, list.id, { step: 1000 });
    // longer than the tail's 3 s between polls: no request, nothing moved under the reader
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(await polls()).toBe(before);
    expect((await types()).length).toBe(shown);
    await tail.evaluate((e) => {
      e.scrollTop = 0;
      e.dispatchEvent(new Event('scroll'));
    });
    await expect.poll(async () => (await types()).length).toBe(shown + 1);
    expect(await polls()).toBeGreaterThan(before);
    expect(await status.textContent()).not.toContain('Paused');
  });

  it('loaded nothing from elsewhere and broke no Content-Security-Policy rule', async () => {
    const outside = requested.filter((url) => !url.startsWith(origin));
    expect(outside).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('signs out: the key leaves sessionStorage', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
  });
});
