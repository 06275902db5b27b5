import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { errors, fromDomainError } from '../../src/http/httpErrors.js';
import { methods } from '../../src/methods/methodRegistry.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { errorBodies } from '../../src/openapi/responses/errorResponses.js';
import { domainErrors } from '../../src/shared/domainErrors.js';
import { call } from '../helpers/call.js';
import { makeTenant } from '../helpers/factories.js';
import { fetchDocument, responseChecker } from '../helpers/openapiConformance.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

let doc: OpenApiDocument;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const t = testAppForFile();
beforeAll(async () => {
  doc = await fetchDocument(t.app);
});

const registered = [...methods.keys()];

describe('GET /api/v1/openapi.json (the API described from its own schemas)', () => {
  it('is served without an API key, as JSON, ahead of the /api/v1/:method route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Listkeeper API' } });
    // POST is not a route of the document: the API route answers, as for any unknown method.
    const post = await call(t.app, 'openapi.json', {});
    expect(post.status).toBe(404);
  });

  it('is a valid OpenAPI 3.1 document according to a maintained validator', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each(registered)('documents %s from its own method unit: summary and each success', (name) => {
    const method = methods.get(name)!;
    const item = doc.paths[`/${name}`] as Json;
    expect(method.summary.length).toBeGreaterThan(0);
    expect(item.post.summary).toBe(method.summary);
    expect(Object.keys(item.post.responses)).toEqual(
      expect.arrayContaining(method.success.map((s) => String(s.status))),
    );
    for (const s of method.success) {
      const content = item.post.responses[String(s.status)].content;
      // 204 answers carry no body; every other success names its shape.
      expect(content === undefined).toBe(s.status === 204);
    }
  });

  it.each(registered)(
    'describes %s with both verbs and the same parameters (the API conventions)',
    (name) => {
      const item = doc.paths[`/${name}`] as Json;
      expect(item.get.operationId).toBe(`${name}ViaGet`);
      expect(item.post.operationId).toBe(name);
      const params = doc.components.schemas[`${name}Params`] as Json;
      expect(params, 'parameter schema').toBeDefined();
      // An open record documents nothing: the method validates somewhere the document cannot see.
      const open = !params.properties && !params.allOf && !params.anyOf && !params.oneOf;
      expect(open, `${name}'s parameters are an open record`).toBe(false);
      const bodyTypes = Object.keys(item.post.requestBody.content);
      expect(bodyTypes).toEqual(['application/json', 'application/x-www-form-urlencoded']);
      // the parameters in the query string; a method that changes data also takes the key header
      const changes = methods.get(name)!.changesData;
      for (const p of item.get.parameters as Json[]) {
        expect(p.in).toBe(p.name === 'Idempotency-Key' && changes ? 'header' : 'query');
      }
      const postHeaders = ((item.post.parameters ?? []) as Json[]).map((p) => p.name);
      expect(postHeaders).toEqual(changes ? ['Idempotency-Key'] : []);
      expect(Object.keys(item.post.responses)).toEqual(
        expect.arrayContaining(['401', '402', '403', '404', '410', '422', '429']),
      );
    },
  );

  it.each(registered)(
    'marks as required only %s parameters whose absence the API rejects with 422 (the error rules)',
    async (name) => {
      const required = (doc.paths[`/${name}`] as Json).get.parameters
        .filter((p: Json) => p.required)
        .map((p: Json) => p.name as string);
      const tenant = await makeTenant(t.db);
      const res = await call(t.app, name, {}, { key: tenant.apiKey });
      if (required.length === 0) {
        expect(res.status === 422 ? Object.keys(res.body.errors) : []).toEqual([]);
      } else {
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(required));
      }
    },
  );

  it('declares both ways to pass the key as security schemes (the authentication rules)', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      apiToken: { type: 'apiKey', in: 'query', name: 'api_token' },
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiToken: [] }]);
  });

  it('documents the rate-limit and deprecation headers (the limits, 9)', () => {
    const responses = doc.components.responses as Json;
    expect(Object.keys(responses.TooManyAttempts.headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining']),
    );
    const ok = (doc.paths['/getMe'] as Json).post.responses['200'];
    expect(Object.keys(ok.headers)).toEqual(
      expect.arrayContaining([
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'Deprecation',
        'Sunset',
      ]),
    );
  });

  it('gives every error status of the error rules a response with a body schema', () => {
    const ops = (doc.paths['/getMe'] as Json).post.responses as Json;
    for (const status of ['401', '402', '403', '404', '410', '422', '429']) {
      const ref = ops[status].$ref as string;
      const response = (doc.components.responses as Json)[ref.split('/').pop()!];
      expect(response.content['application/json'].schema.$ref).toBe(
        `#/components/schemas/Error${status}`,
      );
    }
  });
});

describe('error bodies (the error rules) against the document', () => {
  const samples: [number, { status: number; body: unknown }][] = [
    [400, errors.badRequest('x')],
    [401, errors.unauthorized()],
    [402, errors.proRequired()],
    [403, errors.accountBlocked()],
    [403, fromDomainError(domainErrors.foreignList())],
    [404, fromDomainError(domainErrors.listNotFound())],
    [404, fromDomainError(domainErrors.itemNotFound())],
    [404, fromDomainError(domainErrors.botNotFound())],
    [404, errors.notFound()],
    [404, errors.methodNotFound('nope')],
    [410, errors.methodRemoved('getMe')],
    [413, errors.payloadTooLarge(10)],
    [422, fromDomainError(domainErrors.invalid('fields.0.slug', 'has a duplicate value'))],
    [429, errors.tooManyAttempts(30, 120)],
    [500, errors.serverError('req-1')],
    [503, errors.unavailable()],
  ];

  it.each(samples)('the catalog body for %i matches its documented schema', (status, error) => {
    expect(error.status).toBe(status);
    expect(Object.hasOwn(errorBodies, status)).toBe(true);
    expect(responseChecker(doc)('getMe', error)).toEqual([]);
  });
});

/**
 * What the document says of a parameter: its rules, wherever they are (the params object, a
 * branch of allOf/anyOf, or the `else` of a rule that ignores it under a condition).
 */
function property(method: string, name: string): Json {
  const search = (schema: Json): Json | undefined => {
    const own = schema?.properties?.[name];
    if (own && Object.keys(own).some((k) => k !== 'description')) return own;
    for (const branch of [...(schema?.allOf ?? []), ...(schema?.anyOf ?? []), schema?.else]) {
      const found = branch && search(branch);
      if (found) return found;
    }
    return undefined;
  };
  return search(doc.components.schemas[`${method}Params`] as Json)!;
}

describe('bounds the server enforces are in the document', () => {
  it.each([
    ['getListItems', 'limit', 1, 1000],
    ['getListItems', 'page', 1, Number.MAX_SAFE_INTEGER],
    ['getListSchemas', 'page', 1, Number.MAX_SAFE_INTEGER],
    ['getContacts', 'count', 1, 500],
    ['getContacts', 'limit', 1, 1000],
    ['getContacts', 'offset', 0, Number.MAX_SAFE_INTEGER],
    ['getContacts', 'date_from', 0, 253_402_300_799],
    ['getNumberOfContacts', 'date_to', 0, 253_402_300_799],
    ['createOrUpdateContact', 'telegram_id', 1, Number.MAX_SAFE_INTEGER],
  ])('%s.%s is an integer from %d to %d', async (method, name, min, max) => {
    const schema = property(method, name);
    // blank means not sent: the value as described, or null, or whitespace-only text
    const value = schema.anyOf ? schema.anyOf[0] : schema;
    expect(value).toMatchObject({ type: 'integer', minimum: min, maximum: max });
    // and the server holds to it: one below the minimum is refused under that key
    const tenant = await makeTenant(t.db);
    const res = await call(t.app, method, { [name]: min - 1 }, { key: tenant.apiKey });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(name);
  });
});

describe('the blank rule in the document', () => {
  it.each([
    ['getListItems', 'limit'],
    ['getListItems', 'page'],
    ['getContacts', 'count'],
    ['getNumberOfContacts', 'date_from'],
    ['createOrUpdateContact', 'email'],
  ])(
    '%s.%s also takes null and blank text, and the server reads them as not sent',
    async (method, name) => {
      const branches = property(method, name).anyOf as Json[];
      expect(branches.slice(1)).toEqual([{ type: 'null' }, { type: 'string', pattern: '^\\s*$' }]);
      if (method === 'createOrUpdateContact') return;
      const tenant = await makeTenant(t.db);
      const base = method === 'getListItems' ? { schema_id: 'none' } : {};
      for (const blank of [null, '', '  ']) {
        const res = await call(t.app, method, { ...base, [name]: blank }, { key: tenant.apiKey });
        // a blank value is never the reason for a 422
        expect(Object.keys(res.body.errors ?? {})).not.toContain(name);
      }
    },
  );
});

describe('rules across parameters in the document', () => {
  it('createListSchema needs bot_id or project_uuid, and the server agrees', async () => {
    const text = JSON.stringify(doc.components.schemas.createListSchemaParams);
    // each sent, that is present and not blank (the blank rule)
    const sent = (name: string) =>
      JSON.stringify({
        required: [name],
        properties: {
          [name]: { not: { anyOf: [{ type: 'null' }, { type: 'string', pattern: '^\\s*$' }] } },
        },
      });
    expect(text).toContain(`{"anyOf":[${sent('bot_id')},${sent('project_uuid')}]}`);
    const tenant = await makeTenant(t.db);
    const res = await call(
      t.app,
      'createListSchema',
      { name: 'L', fields: [{ name: 'A', slug: 'a', type: 'string' }] },
      { key: tenant.apiKey },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['bot_id', 'project_uuid']);
  });

  it('createListSchema ignores project_uuid when bot_id is sent, and the document says so', async () => {
    const params = doc.components.schemas.createListSchemaParams as Json;
    const target = params.allOf[0];
    expect(target.properties.project_uuid).toEqual({});
    const rule = target.allOf.find((r: Json) => r.if);
    expect(rule.if.required).toEqual(['bot_id']);
    expect(rule.else.properties.project_uuid.anyOf[0].pattern).toMatch(/^\^\[0-9a-f\]/);
    const tenant = await makeTenant(t.db);
    const res = await call(
      t.app,
      'createListSchema',
      {
        bot_id: tenant.botId,
        project_uuid: 12.5,
        name: 'L',
        fields: [{ name: 'A', slug: 'a', type: 'string' }],
      },
      { key: tenant.apiKey },
    );
    expect(res.status).toBe(201);
  });

  it('getContacts ignores page and count in offset mode, and the document says so', async () => {
    const params = doc.components.schemas.getContactsParams as Json;
    expect(Object.keys(params.properties.page)).toEqual(['description']);
    const rule = params.allOf.find((r: Json) => r.if);
    expect(rule.if.anyOf.map((c: Json) => c.required)).toEqual([['offset'], ['limit']]);
    expect(Object.keys(rule.else.properties).sort()).toEqual(['count', 'page']);
    const tenant = await makeTenant(t.db);
    const offsetMode = await call(
      t.app,
      'getContacts',
      { offset: 0, page: 'x', count: [1] },
      { key: tenant.apiKey },
    );
    expect(offsetMode.status).toBe(200);
    const pageMode = await call(t.app, 'getContacts', { page: 'x' }, { key: tenant.apiKey });
    expect(pageMode.status).toBe(422);
  });

  it.each([
    ['telegram', ['telegram_id']],
    ['max', ['max_id', 'max_user_id']],
    ['vk', ['vk_id', 'vk_user_id']],
    ['viber', ['viber_id']],
  ])(
    'createOrUpdateContact with messenger %s needs one of %j, and the server agrees',
    async (messenger, ids) => {
      const rules = (doc.components.schemas.createOrUpdateContactParams as Json).allOf as Json[];
      const rule = rules
        .flatMap((r: Json) => r.allOf ?? [])
        .find((r: Json) => r.if.properties.messenger.const === messenger);
      expect(rule.then.anyOf.map((r: Json) => r.required)).toEqual(ids.map((id) => [id]));
      // sent means not blank: null is as good as leaving the ID out
      expect(rule.then.anyOf[0].properties[ids[0]!].not).toBeDefined();
      const tenant = await makeTenant(t.db);
      const res = await call(
        t.app,
        'createOrUpdateContact',
        { bot_id: tenant.botId, messenger, name: 'N' },
        { key: tenant.apiKey },
      );
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([ids[0]]);
    },
  );
});

describe('filters and order_by in the document', () => {
  const props = () => (doc.components.schemas.getListItemsParams as Json).properties;
  // the value as described; the other branches are the blank rule's (and an indexed array)
  const valueOf = (name: string) => props()[name].anyOf[0];

  it('describe order_by as the server reads it', () => {
    const pattern = new RegExp(valueOf('order_by').pattern);
    for (const ok of ['price', 'price,asc', 'price , DESC', 'created_at,desc'])
      expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ['price,up', 'a,b,c', 'bad slug']) expect(pattern.test(bad), bad).toBe(false);
  });

  it('describe filters as an object of values, naming every operator', () => {
    expect(valueOf('filters')).toMatchObject({
      type: 'object',
      additionalProperties: expect.any(Object),
    });
    for (const op of ['!=', '<=', 'not like'])
      expect(props().filters.description).toContain(`\`${op}\``);
  });
});

describe('form bodies nest as the query string does (bracket notation)', () => {
  const encodingOf = (method: string) =>
    ((doc.paths[`/${method}`] as Json).post.requestBody.content['application/x-www-form-urlencoded']
      .encoding ?? {}) as Record<string, Json>;
  const styleKeys = ['style', 'explode', 'x-bracket-notation'];
  const styleOf = (p: Json) =>
    Object.fromEntries(styleKeys.filter((k) => k in p).map((k) => [k, p[k]]));

  it('declares an encoding in the form body for every nested parameter, as its query parameter', () => {
    for (const name of registered) {
      const encoding = encodingOf(name);
      for (const p of (doc.paths[`/${name}`] as Json).get.parameters as Json[]) {
        if (p.in !== 'query') continue;
        const style = styleOf(p);
        expect(encoding[p.name] ?? {}, `${name}.${p.name}`).toEqual(style);
        // deepObject is defined for objects only: an array never claims it
        if (p.style === 'deepObject') expect(p.schema.type, `${name}.${p.name}`).toBe('object');
      }
    }
    const deep = { style: 'deepObject', explode: true };
    const repeated = { style: 'form', explode: true };
    expect(encodingOf('createListSchema').fields).toEqual({
      'x-bracket-notation': 'fields[0][<key>]=<value>',
    });
    expect(encodingOf('addListItems').items).toEqual({
      'x-bracket-notation': 'items[0][<key>]=<value>',
    });
    expect(encodingOf('createOrUpdateContacts').contacts).toEqual({
      'x-bracket-notation': 'contacts[0][<key>]=<value>',
    });
    expect(encodingOf('addListItem').data).toEqual({
      ...deep,
      'x-bracket-notation': 'data[<key>][<key or index>]=<value>',
    });
    expect(encodingOf('getListItems').filters).toEqual(deep);
    expect(encodingOf('createOrUpdateContact').tags).toEqual(repeated);
    expect(encodingOf('deleteListItems').item_ids).toEqual(repeated);
    expect(encodingOf('createWebhook').types).toEqual(repeated);
    expect(encodingOf('getMe')).toEqual({});
  });

  it('the server reads repeated form values as the list they declare', async () => {
    const me = await makeTenant(t.db);
    const res = await call(
      t.app,
      'createOrUpdateContact',
      {
        bot_id: me.botId,
        messenger: 'telegram',
        telegram_id: 77_000_123,
        name: 'Tagged',
        tags: ['a', 'b'],
      },
      { key: me.apiKey, via: 'form' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.tags).toEqual(['a', 'b']);
  });

  it('and the server reads a form body written that way', async () => {
    const me = await makeTenant(t.db);
    const res = await call(
      t.app,
      'createListSchema',
      {
        name: 'Form',
        project_uuid: me.projectUuid,
        fields: [{ name: 'Title', slug: 'title', type: 'string' }],
      },
      { key: me.apiKey, via: 'form' },
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data.fields)).toEqual(['title']);
  });
});

describe('example answers in the document', () => {
  it('every answer with a body has an example from a real call, valid by its schema', () => {
    const check = responseChecker(doc);
    const missing: string[] = [];
    const wrong: string[] = [];
    for (const name of registered) {
      const responses = (doc.paths[`/${name}`] as Json).post.responses as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        if (!status.startsWith('2') || response.$ref) continue;
        const content = response.content?.['application/json'];
        if (!content) continue;
        if (content.example === undefined) {
          missing.push(`${name} ${status}`);
          continue;
        }
        wrong.push(...check(name, { status: Number(status), body: content.example }));
      }
    }
    // run `npm run docs:examples` after adding a method or changing an answer
    expect(missing).toEqual([]);
    expect(wrong).toEqual([]);
  });
});

describe('what a query string or a form body can carry (issue 33)', () => {
  const ajv = () => {
    const a = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(a);
    a.addSchema({ $id: 'doc', components: { schemas: doc.components.schemas } });
    return a;
  };
  const textSchemas = () =>
    registered.flatMap((name) => [
      ...((doc.paths[`/${name}`] as Json).get.parameters as Json[])
        .filter((p) => p.in === 'query')
        .map((p) => [`${name}.${p.name}`, p.schema] as const),
      [`${name} form`, doc.components.schemas[`${name}FormParams`] as Json] as const,
    ]);
  /** Every subschema that describes a value (a `not` describes what is refused). */
  const walk = (schema: unknown, visit: (s: Json) => void): void => {
    if (Array.isArray(schema)) return schema.forEach((s) => walk(s, visit));
    if (typeof schema !== 'object' || schema === null) return;
    visit(schema as Json);
    for (const [key, value] of Object.entries(schema)) {
      if (key !== 'not' && key !== 'if') walk(value, visit);
    }
  };

  it('has no null anywhere: a blank value or leaving the parameter out is how text says it', () => {
    for (const [where, schema] of textSchemas()) {
      walk(schema, (s) => {
        expect(s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')), where).toBe(
          false,
        );
      });
    }
  });

  it('bounds every array by the parser’s 200 items, which the server holds to', async () => {
    for (const [where, schema] of textSchemas()) {
      walk(schema, (s) => {
        if (s.type === 'array') expect(s.maxItems, where).toBeLessThanOrEqual(200);
      });
    }
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);
    const me = await makeTenant(t.db);
    for (const via of ['query', 'form'] as const) {
      const at = (n: number) =>
        call(
          t.app,
          'deleteListItems',
          { schema_id: 'none', item_ids: ids(n) },
          { key: me.apiKey, via },
        );
      // 200 is read (and the list is not there), 201 is not read at all
      expect((await at(200)).status, via).toBe(404);
      expect((await at(201)).status, via).toBe(400);
    }
  });

  it('addListItems: no array is one item, so [] and ["x"] are refused by both', async () => {
    const validate = ajv().compile({ $ref: 'doc#/components/schemas/addListItemsParams' });
    const me = await makeTenant(t.db);
    for (const items of [[], ['x']]) {
      expect(validate({ schema_id: 'l', items }), JSON.stringify(items)).toBe(false);
      const res = await call(t.app, 'addListItems', { schema_id: 'l', items }, { key: me.apiKey });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).some((k) => k.startsWith('items'))).toBe(true);
    }
    expect(validate({ schema_id: 'l', items: { title: 'one' } })).toBe(true);
  });

  it('createWebhook: url is an absolute http(s) URL without user info, and the server agrees', async () => {
    const url = property('createWebhook', 'url');
    expect(url).toMatchObject({ type: 'string', format: 'uri', pattern: expect.any(String) });
    const pattern = new RegExp(url.pattern);
    const me = await makeTenant(t.db);
    for (const bad of [
      'ftp://example.com/',
      'http://user:pw@example.com/',
      '/relative',
      'http://',
    ]) {
      expect(pattern.test(bad), bad).toBe(false);
      const res = await call(t.app, 'createWebhook', { url: bad }, { key: me.apiKey });
      expect(res.status, bad).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['url']);
    }
    for (const good of ['https://example.com/hooks?x=1', 'HTTP://[2001:db8::1]:8080/']) {
      expect(pattern.test(good), good).toBe(true);
    }
  });

  it('emails: the pattern the document states is the one the server holds to', async () => {
    const email = property('createOrUpdateContact', 'email').anyOf[0] as Json;
    expect(email.format).toBe('email');
    const pattern = new RegExp(email.pattern);
    const me = await makeTenant(t.db);
    let id = 88_000_000;
    const send = (address: string) =>
      call(
        t.app,
        'createOrUpdateContact',
        { bot_id: me.botId, messenger: 'telegram', telegram_id: ++id, name: 'E', email: address },
        { key: me.apiKey },
      );
    for (const good of ['a/b@example.com', 'a$b@example.com', 'a~b@example.com', "o'neil@x.io"]) {
      expect(pattern.test(good), good).toBe(true);
      expect((await send(good)).status, good).toBe(201);
    }
    for (const bad of ['"a b"@example.com', 'a@[127.0.0.1]', 'a..b@example.com', 'a@localhost']) {
      expect(pattern.test(bad), bad).toBe(false);
      expect((await send(bad)).status, bad).toBe(422);
    }
  });

  it('createOrUpdateContacts: each contact needs messenger, name and its messenger ID, in both', async () => {
    const validate = ajv().compile({
      $ref: 'doc#/components/schemas/createOrUpdateContactsParams',
    });
    const me = await makeTenant(t.db);
    const bodies: [Json, string[]][] = [
      [{}, ['contacts.0.messenger', 'contacts.0.name']],
      [{ messenger: 'telegram', name: 'A' }, ['contacts.0.telegram_id']],
      [{ messenger: 'vk', name: 'A', vk_id: 'x' }, ['contacts.0.vk_id']],
    ];
    for (const [contact, keys] of bodies) {
      const params = { bot_id: me.botId, contacts: [contact] };
      expect(validate(params), JSON.stringify(contact)).toBe(false);
      const res = await call(t.app, 'createOrUpdateContacts', params, { key: me.apiKey });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(keys);
    }
    const good = { bot_id: me.botId, contacts: [{ messenger: 'vk', name: 'A', vk_user_id: 5 }] };
    expect(validate(good)).toBe(true);
  });

  it('documents 431 for a request line and headers over Node’s limit', () => {
    const ops = (doc.paths['/getListItems'] as Json).get.responses as Json;
    expect(ops['431'].$ref).toBe('#/components/responses/HeadersTooLarge');
    expect((doc.paths['/getListItems'] as Json).get.description).toContain('431');
  });
});
