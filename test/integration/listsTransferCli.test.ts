import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { ensureBuilt, runCli } from '../helpers/processes.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

// `lists import` and `lists export` run as the operator runs them: the built CLI, real files.
let env: Record<string, string>;
const dir = mkdtempSync(path.join(tmpdir(), 'lk-lists-transfer-'));

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'stranger'] });
beforeAll(async () => {
  await ensureBuilt();
  env = { DATABASE_URL: t.database.url, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
}, 180_000);

const FIELDS = [
  { slug: 'title', name: 'Title', type: 'string', is_required: true },
  { slug: 'price', name: 'Price', type: 'money', currency: 'EUR', is_required: false },
  { slug: 'day', name: 'Day', type: 'date', is_required: false },
  { slug: 'secret', name: 'Secret', type: 'string', is_required: false, is_encryptable: true },
  { slug: 'who', name: 'Who', type: 'contact', is_required: false },
  { slug: 'bot', name: 'Bot', type: 'bot', is_required: false },
];

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

const ndjson = (lines: (string | object)[]) =>
  lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n');

async function items(schemaId: string) {
  const res = await call(
    t.app,
    'getListItems',
    { schema_id: schemaId, limit: 1000 },
    { key: t.owner.apiKey },
  );
  return res.body.data as any[];
}

const importArgs = (list: string, at: string, ...more: string[]) => [
  'lists',
  'import',
  '--list',
  list,
  '--file',
  at,
  '--json',
  ...more,
];

describe('lists import', () => {
  it('imports good NDJSON lines with every codec, skips bad ones with their line and reason', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const contact = await seedContact(t.db, t.owner.botId);
    const theirs = await seedContact(t.db, t.stranger.botId);
    const at = file(
      'mixed.ndjson',
      ndjson([
        {
          title: 'A',
          price: 12.5,
          day: '2026-01-31T00:00:00.000Z',
          secret: 's-1',
          who: contact,
          bot: t.owner.botId,
        },
        'not json',
        { price: 3 },
        { title: 'B', price: 'lots' },
        { title: 'C', who: 999_999_999 },
        { title: 'D', who: theirs },
        '',
        { title: 'E', id: 'ignored', created_at: 'ignored' },
      ]),
    );
    const res = await runCli(importArgs(list.id, at), env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({
      lines: 7,
      imported: 2,
      updated: 0,
      unchanged: 0,
      failed: 5,
    });
    const failures = res.stderr.split('\n').filter((l) => /^line \d+: /.test(l));
    expect(failures).toEqual([
      'line 2: not valid JSON',
      'line 3: The title field is required.',
      expect.stringMatching(/^line 4: The price field /),
      'line 5: The selected who is invalid.',
      'line 6: The contact or bot belongs to another account.',
    ]);
    const got = await items(list.id);
    expect(got.map((i) => i.title)).toEqual(['A', 'E']);
    expect(got[0]).toMatchObject({
      price: 12.5,
      day: '2026-01-31T00:00:00.000Z',
      secret: 's-1',
      who: contact,
      bot: t.owner.botId,
      contact_id: contact,
    });
  });

  it('reads CSV: a BOM, quoted commas, quotes and line breaks, empty cells as no value', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const at = file(
      'records.csv',
      '\uFEFFtitle,price,day,secret,unknown\r\n' +
        '"Comma, inside",1.5,2026-02-01,x,whatever\r\n' +
        '"Quote ""here""",,,,\r\n' +
        '"Two\nlines",2,,,\r\n' +
        ',4,,,\r\n' +
        'short,1\r\n',
    );
    const res = await runCli(importArgs(list.id, at, '--format', 'csv'), env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ imported: 3, failed: 2 });
    expect(res.stderr).toContain('line 6: The title field is required.');
    expect(res.stderr).toContain('line 7: 2 cells where the header has 5');
    const got = await items(list.id);
    expect(got.map((i) => i.title)).toEqual(['Comma, inside', 'Quote "here"', 'Two\nlines']);
    expect(got[0]).toMatchObject({ price: 1.5, day: '2026-02-01T00:00:00.000Z', secret: 'x' });
    expect(got[1].price).toBeNull();
  });

  it('with --key, a run again updates instead of duplicating', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const first = file(
      'keyed.ndjson',
      ndjson([
        { title: 'K1', price: 1 },
        { title: 'K2', price: 2 },
      ]),
    );
    const once = await runCli(importArgs(list.id, first, '--key', 'title'), env);
    expect(once.code, once.stderr).toBe(0);
    expect(JSON.parse(once.stdout)).toMatchObject({ imported: 2, updated: 0 });
    const again = file(
      'keyed-again.ndjson',
      ndjson([
        { title: 'K1', price: 10 },
        { title: 'K3', price: 3 },
        { title: 'K3', price: 30 },
      ]),
    );
    const res = await runCli(importArgs(list.id, again, '--key', 'title'), env);
    expect(JSON.parse(res.stdout)).toMatchObject({ imported: 1, updated: 2, failed: 0 });
    const got = await items(list.id);
    expect(got.map((i) => [i.title, i.price])).toEqual([
      ['K1', 10],
      ['K2', 2],
      ['K3', 30],
    ]);
    const bad = await runCli(importArgs(list.id, again, '--key', 'price'), env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--key price must be a string field');
  });

  it('with --key, a key repeated in the next batch finds the record its first line wrote', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    // 2,500 lines over 1,500 keys: batch 2 (lines 1000–1999) repeats keys of batch 1, and
    // batch 3 of batch 2; two batches are written at once unless they share a key
    const lines = Array.from({ length: 2500 }, (_, i) => ({ title: `k${i % 1500}`, price: i }));
    const at = file('repeats.ndjson', ndjson(lines));
    const res = await runCli(importArgs(list.id, at, '--key', 'title'), env);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ imported: 1500, updated: 1000, failed: 0 });
    const k0 = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { title: 'k0' } },
      { key: t.owner.apiKey },
    );
    expect(k0.body.meta.total).toBe(1);
    expect(k0.body.data[0].price).toBe(1500);
    const all = await call(t.app, 'getListItems', { schema_id: list.id }, { key: t.owner.apiKey });
    expect(all.body.meta.total).toBe(1500);
  });

  it('with --key, a run again leaves records that hold their line as they are', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const contact = await seedContact(t.db, t.owner.botId);
    const lines = [
      { title: 'S1', price: 1.5, day: '2026-02-01', secret: 'hush', who: contact },
      { title: 'S2', price: 2, secret: null },
      { title: 'S3' },
    ];
    const at = file('same.ndjson', ndjson(lines));
    const first = await runCli(importArgs(list.id, at, '--key', 'title'), env);
    expect(JSON.parse(first.stdout)).toMatchObject({ imported: 3, updated: 0, unchanged: 0 });
    const before = await items(list.id);
    const events = async () =>
      (await call(t.app, 'getChanges', { schema_id: list.id, limit: 100 }, { key: t.owner.apiKey }))
        .body.data.length;
    const eventsBefore = await events();

    const again = await runCli(importArgs(list.id, at, '--key', 'title'), env);
    expect(JSON.parse(again.stdout)).toMatchObject({
      lines: 3,
      imported: 0,
      updated: 0,
      unchanged: 3,
      failed: 0,
    });
    expect(await items(list.id)).toEqual(before);
    expect(await events()).toBe(eventsBefore);

    // one value differs (the encrypted one, compared opened): that record alone is written
    const changed = file('changed.ndjson', ndjson([{ ...lines[0]!, secret: 'loud' }, lines[2]!]));
    const third = await runCli(importArgs(list.id, changed, '--key', 'title'), env);
    expect(JSON.parse(third.stdout)).toMatchObject({ imported: 0, updated: 1, unchanged: 1 });
    expect((await items(list.id)).find((i) => i.title === 'S1').secret).toBe('loud');
    expect(await events()).toBe(eventsBefore + 1);
  });

  it('with --key, finds records by a key field in its slot and by one without a slot', async () => {
    // four string fields: the first three take the text slots, the fourth lives in data only
    const strings = ['a', 'b', 'c', 'd'].map((slug) => ({
      slug,
      name: slug,
      type: 'string',
      is_required: false,
    }));
    const list = await createListViaApi(t.app, t.owner, strings);
    const lines = Array.from({ length: 30 }, (_, i) => ({
      a: `a${i}`,
      b: 'x',
      c: 'y',
      d: `d${i}`,
    }));
    const at = file('four.ndjson', ndjson(lines));
    expect(JSON.parse((await runCli(importArgs(list.id, at), env)).stdout)).toMatchObject({
      imported: 30,
    });
    for (const key of ['a', 'd']) {
      const edited = file(
        `four-${key}.ndjson`,
        ndjson([
          ...lines.slice(0, 29),
          { ...lines[29]!, b: `by ${key}` },
          { a: `new ${key}`, d: `new ${key}` },
        ]),
      );
      const res = await runCli(importArgs(list.id, edited, '--key', key), env);
      expect(res.stderr.includes(`--key ${key} has no index`), key).toBe(key === 'd');
      expect(JSON.parse(res.stdout), key).toMatchObject({
        imported: 1,
        updated: 1,
        unchanged: 29,
        failed: 0,
      });
      const all = await items(list.id);
      expect(all.find((i) => i.a === 'a29').b).toBe(`by ${key}`);
    }
    expect(await items(list.id)).toHaveLength(32);
  });

  it('refuses a missing list in one line', async () => {
    const at = file('one.ndjson', ndjson([{ title: 'x' }]));
    const res = await runCli(importArgs('01900000-0000-7000-8000-000000000000', at), env);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/does not exist or was deleted/);
  });
});

describe('lists export', () => {
  it('streams NDJSON and CSV as getListItems shows them, filtered and ordered; an export imports back the same', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const contact = await seedContact(t.db, t.owner.botId);
    const lines = Array.from({ length: 2_500 }, (_, i) => ({
      title: `t${i}`,
      price: i % 7 === 0 ? undefined : i / 4,
      day: `2026-03-${String((i % 28) + 1).padStart(2, '0')}`,
      secret: `s${i}`,
      who: i % 3 === 0 ? contact : undefined,
      bot: t.owner.botId,
    }));
    const source = file('source.ndjson', ndjson(lines));
    expect((await runCli(importArgs(list.id, source), env)).code).toBe(0);

    // to stdout: the records only; the summary on stderr
    const out = await runCli(['lists', 'export', '--list', list.id, '--json'], env);
    expect(out.code, out.stderr).toBe(0);
    const exported = out.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(exported).toHaveLength(2_500);
    expect(out.stderr).toContain('{"exported":2500,"format":"ndjson"}');
    const page = await items(list.id);
    expect(exported.slice(0, 1000)).toEqual(page);

    // filtered and ordered, to a file
    const ordered = path.join(dir, 'ordered.ndjson');
    const res = await runCli(
      [
        'lists',
        'export',
        '--list',
        list.id,
        '--filters',
        JSON.stringify({ price: '>=,100' }),
        '--order-by',
        'price,desc',
        '--file',
        ordered,
        '--json',
      ],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const picked = readFileSync(ordered, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const expected = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { price: '>=,100' }, order_by: 'price,desc', limit: 1000 },
      { key: t.owner.apiKey },
    );
    expect(picked).toHaveLength(expected.body.meta.total);
    expect(picked.slice(0, 1000)).toEqual(expected.body.data);
    expect(JSON.parse(res.stdout)).toEqual({ exported: picked.length, format: 'ndjson' });

    // round trips: NDJSON and CSV exports imported into fresh lists give the same records
    for (const format of ['ndjson', 'csv']) {
      const at = path.join(dir, `all.${format}`);
      const exportRun = await runCli(
        ['lists', 'export', '--list', list.id, '--format', format, '--file', at, '--json'],
        env,
      );
      expect(exportRun.code, exportRun.stderr).toBe(0);
      const copy = await createListViaApi(t.app, t.owner, FIELDS);
      const back = await runCli(importArgs(copy.id, at, '--format', format), env);
      expect(JSON.parse(back.stdout), back.stderr).toMatchObject({ imported: 2_500, failed: 0 });
      // new ids and times; everything else the same, in the same order
      const strip = (r: any) =>
        Object.fromEntries(
          Object.entries(r).filter(([k]) => !['id', 'created_at', 'updated_at'].includes(k)),
        );
      const again = await runCli(['lists', 'export', '--list', copy.id], env);
      const copied = again.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(copied.map(strip)).toEqual(exported.map(strip));
    }
  }, 120_000);

  it('writes NDJSON lines byte for byte as getListItems answers each record, Postgres-written or not', async () => {
    // no sealed field, so Postgres writes the records it can (recordJson.ts); the tiny and the
    // huge amounts are ones it leaves to Node, among the others in the same export
    const list = await createListViaApi(t.app, t.owner, [
      { slug: 'title', name: 'Title', type: 'string', is_required: true },
      { slug: 'amount', name: 'Amount', type: 'number', is_required: false },
      { slug: 'price', name: 'Price', type: 'money', currency: 'EUR', is_required: false },
      { slug: 'day', name: 'Day', type: 'date', is_required: false },
      { slug: 'at', name: 'At', type: 'datetime', is_required: false },
      { slug: 'flag', name: 'Flag', type: 'bool', is_required: false },
      { slug: 'who', name: 'Who', type: 'contact', is_required: false },
    ]);
    const contact = await seedContact(t.db, t.owner.botId);
    const amounts = [0, -3.25, 1e-7, 123456789, 1.5e21, 0.1 + 0.2];
    const lines = Array.from({ length: 600 }, (_, i) => ({
      title: i % 5 === 0 ? `"quoted" \\ ${i} ✓` : `t${i}`,
      amount: i % 9 === 0 ? undefined : amounts[i % amounts.length],
      price: i % 4 === 0 ? undefined : (i * 37) / 100,
      day: `2026-0${(i % 9) + 1}-${String((i % 28) + 1).padStart(2, '0')}`,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i * 7)).toISOString(),
      flag: i % 3 === 0 ? undefined : i % 2 === 0,
      who: i % 2 === 0 ? contact : undefined,
    }));
    const source = file('written.ndjson', ndjson(lines));
    expect((await runCli(importArgs(list.id, source), env)).code).toBe(0);

    const reads: { filters?: Record<string, string>; order_by?: string }[] = [
      {},
      { filters: { amount: '>=,0' }, order_by: 'amount,desc' },
    ];
    for (const read of reads) {
      const args = ['lists', 'export', '--list', list.id];
      if (read.filters) args.push('--filters', JSON.stringify(read.filters));
      if (read.order_by) args.push('--order-by', read.order_by);
      const out = await runCli(args, env);
      expect(out.code, out.stderr).toBe(0);
      const exported = out.stdout.trimEnd().split('\n');
      const page = await call(
        t.app,
        'getListItems',
        { schema_id: list.id, ...read, limit: 1000 },
        { key: t.owner.apiKey },
      );
      expect(exported).toHaveLength(page.body.meta.total);
      expect(exported.length).toBeGreaterThan(100);
      expect(page.raw.body).toContain(`"data":[${exported.join(',')}]`);
    }
  }, 120_000);

  it('refuses bad filters and order in one line', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const res = await runCli(
      ['lists', 'export', '--list', list.id, '--order-by', 'nope,asc', '--filters', '{"x":1}'],
      env,
    );
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    const notJson = await runCli(['lists', 'export', '--list', list.id, '--filters', '{'], env);
    expect(notJson.stderr).toContain('--filters is not valid JSON');
  });
});
