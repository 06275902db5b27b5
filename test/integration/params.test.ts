import { describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { probeAppForFile } from '../helpers/probeMethods.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ tenants: ['tenant'] });
const probe = probeAppForFile(t);

const headers = () => ({ accept: 'application/json', authorization: `Bearer ${t.tenant.apiKey}` });

async function echoQuery(query: string) {
  const res = await probe.app.inject({ url: `/api/v1/echoParams?${query}`, headers: headers() });
  return { status: res.statusCode, body: res.json() };
}

async function echoForm(form: string) {
  const res = await probe.app.inject({
    method: 'POST',
    url: '/api/v1/echoParams',
    headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: form,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('bracket notation and encoding (the API conventions)', () => {
  const text =
    'fields[0][name]=First%20name&fields[0][slug]=first_name&fields[1][name]=Age&fields[1][slug]=age' +
    '&filters[first_name]=like,%25Ann%25&filters[age]=%3E%3D,18&name=a%26b%3Dc+d';
  const expected = {
    fields: [
      { name: 'First name', slug: 'first_name' },
      { name: 'Age', slug: 'age' },
    ],
    filters: { first_name: 'like,%Ann%', age: '>=,18' },
    name: 'a&b=c d',
  };

  it('reads nested arrays and objects from the query string', async () => {
    const res = await echoQuery(text);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expected);
  });

  it('reads the same from a form body', async () => {
    const res = await echoForm(text);
    expect(res.body.data).toEqual(expected);
  });

  it.each(TRANSPORTS)('gives the same parameters via %s', async (via) => {
    const res = await call(probe.app, 'echoParams', expected, { key: t.tenant.apiKey, via });
    expect(res.body.data).toEqual(expected);
  });
});

describe('array limits (30 fields, 100 tags)', () => {
  it('keeps indexes above 20 as arrays, up to 200 items', async () => {
    const tags = Array.from({ length: 200 }, (_, i) => `t${i}`);
    const query = tags.map((tag, i) => `tags[${i}]=${tag}`).join('&');
    for (const res of [await echoQuery(query), await echoForm(query)]) {
      expect(res.status).toBe(200);
      expect(res.body.data.tags).toEqual(tags);
    }
  });

  it('keeps 30 nested field objects as an array', async () => {
    const query = Array.from({ length: 30 }, (_, i) => `fields[${i}][slug]=f${i}`).join('&');
    const res = await echoQuery(query);
    expect(Array.isArray(res.body.data.fields)).toBe(true);
    expect(res.body.data.fields).toHaveLength(30);
    expect(res.body.data.fields[29]).toEqual({ slug: 'f29' });
  });

  it('accepts 100 tags given as repeated empty brackets', async () => {
    const query = Array.from({ length: 100 }, (_, i) => `tags[]=t${i}`).join('&');
    const res = await echoQuery(query);
    expect(res.body.data.tags).toHaveLength(100);
  });
});

describe('prototype keys (no prototype pollution)', () => {
  it('drops __proto__ and constructor keys from the query string and form body', async () => {
    const query =
      '__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][polluted]=1&keep=1';
    for (const res of [await echoQuery(query), await echoForm(query)]) {
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ keep: '1' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('drops __proto__ and constructor keys from a JSON body', async () => {
    const res = await probe.app.inject({
      method: 'POST',
      url: '/api/v1/echoParams',
      headers: { ...headers(), 'content-type': 'application/json' },
      payload:
        '{"__proto__":{"polluted":1},"nested":{"constructor":{"prototype":{"polluted":1}}},"keep":1}',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ keep: 1, nested: {} });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('text coercion of GET and form values', () => {
  it.each([
    ['page=2&flag=true', { page: 2, flag: true }],
    ['page=%202%20&flag=1', { page: 2, flag: true }],
    ['page=-3&flag=false', { page: -3, flag: false }],
    ['page=0&flag=0', { page: 0, flag: false }],
  ])('reads %s as typed values', async (query, data) => {
    const res = await echoQuery(query);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(data);
  });

  it('takes JSON numbers and booleans as they are', async () => {
    const res = await call(
      probe.app,
      'echoParams',
      { page: 7, flag: false },
      {
        key: t.tenant.apiKey,
      },
    );
    expect(res.body.data).toEqual({ page: 7, flag: false });
  });

  it.each([
    ['page=2.5', 'page'],
    ['page=abc', 'page'],
    ['page=1e3', 'page'],
    ['page=99999999999999999', 'page'],
    ['page=', 'page'],
    ['flag=yes', 'flag'],
    ['flag=2', 'flag'],
    ['flag=', 'flag'],
  ])('rejects %s with 422 under its key', async (query, key) => {
    const res = await echoQuery(query);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([key]);
  });
});

describe('422 lists every failing field with dotted keys (the error rules)', () => {
  it.each(TRANSPORTS)('reports all failures at once via %s', async (via) => {
    const res = await call(
      probe.app,
      'strictParams',
      {
        count: 'many',
        enabled: 'maybe',
        field: { slug: 'far-too-long-slug', currency: 'EURO' },
        fields: [{ slug: 'ok' }, { slug: 'Not OK!' }, { slug: 'fine' }, { slug: '42' }],
      },
      { key: t.tenant.apiKey, via },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(
      [
        'count',
        'enabled',
        'field.currency',
        'field.slug',
        'fields.1.slug',
        'fields.3.slug',
        'name',
      ].sort(),
    );
    for (const messages of Object.values(res.body.errors)) {
      expect(messages).toEqual([expect.any(String)]);
    }
    expect(res.body.errors.name).toEqual(['The name field is required.']);
    expect(res.body.message).toMatch(/\(and 6 more errors\)$/);
  });

  it('reports an empty array under the array key', async () => {
    const res = await call(
      probe.app,
      'strictParams',
      { name: 'n', count: 1, enabled: true, field: { slug: 's', currency: 'USD' }, fields: [] },
      { key: t.tenant.apiKey },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['fields']);
  });

  it('accepts a fully valid request given as text (GET)', async () => {
    const res = await call(
      probe.app,
      'strictParams',
      {
        name: 'n',
        count: '3',
        enabled: 'true',
        field: { slug: 's', currency: 'USD' },
        fields: [{ slug: 'a' }],
      },
      { key: t.tenant.apiKey, via: 'query' },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ count: 3, enabled: true });
  });
});
