import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methods } from '../../src/methods/methodRegistry.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { fetchDocument } from '../helpers/openapiConformance.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';
import { arbitraryOf, mergedAllOf } from './schemaArbitrary.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The two checks an OpenAPI-driven tester makes, from the document alone: requests generated
 * from each operation's own parameter schema that are valid by the document are never refused
 * for a reason the document does not state (no 422 on a parameter whose rules are all in the
 * document, no 5xx, only documented statuses), and a value the document forbids is refused
 * with a 4xx. Fixtures (a list, a record, a contact, a webhook of the caller) replace ids now
 * and then, so the success paths of every method are reached too. Seed printed.
 */
const SEED = Number(process.env.DOC_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.DOC_RUNS ?? 40);

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/**
 * Parameters whose 422 can depend on data the document cannot see: a record's values against
 * its list's fields, a slug already taken or not there, ids that must exist, a URL's DNS answer, a cursor.
 */
const DATA_DEPENDENT =
  /^(data|items|contacts|fields|field|slug|filters|order_by|url|since|bot_id|project_uuid|contact_id|idempotency_key)(\.|$)/;

let t: TestApp;
let doc: OpenApiDocument;
let me: Tenant;
const fixtures: Record<string, unknown> = {};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  t = await startTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  doc = await fetchDocument(t.app);
  ajv.addSchema({ $id: 'doc', components: { schemas: doc.components.schemas } });
  me = await makeTenant(t.db);
});
afterAll(() => t.close());

/** A list with one record and a webhook of the caller: the ids generated requests may use. */
async function freshFixtures(): Promise<void> {
  const list = await createListViaApi(t.app, me, [
    { slug: 'title', name: 'Title', type: 'string', is_required: false },
  ]);
  const item = await addItemViaApi(t.app, me, list.id, { title: 'fixture' });
  // an account keeps at most 20 webhooks: the previous fixture goes first
  if (fixtures.webhook_id) {
    await call(t.app, 'deleteWebhook', { webhook_id: fixtures.webhook_id }, { key: me.apiKey });
  }
  const hook = await call(
    t.app,
    'createWebhook',
    { url: 'http://127.0.0.1:9/' },
    { key: me.apiKey },
  );
  Object.assign(fixtures, {
    schema_id: list.id,
    item_id: item.id,
    item_ids: [item.id],
    slug: 'title',
    url: 'http://127.0.0.1:9/',
    bot_id: me.botId,
    project_uuid: me.projectUuid,
    webhook_id: hook.body.data.id,
  });
}

const schemas = () => doc.components.schemas as Record<string, any>;

function paramsSchemaOf(name: string): any {
  const post = (doc.paths[`/${name}`] as any).post;
  return post.requestBody.content['application/json'].schema;
}

function documentedStatuses(name: string): Set<number> {
  const post = (doc.paths[`/${name}`] as any).post;
  return new Set(Object.keys(post.responses).map(Number));
}

/** The operation's parameters, valid by its schema, fixture ids mixed in half of the time. */
function validRequests(name: string) {
  const schema = paramsSchemaOf(name);
  const validate = ajv.compile({ $ref: `doc${schema.$ref}` });
  return fc
    .tuple(arbitraryOf(schema, schemas()), fc.boolean())
    .map(([params, useFixtures]) => {
      const p = { ...(params as Record<string, unknown>) };
      if (useFixtures) for (const k of Object.keys(fixtures)) if (k in p) p[k] = fixtures[k];
      return p;
    })
    .filter((p) => validate(p) === true);
}

/** A wrong value for one property of `params`: of another type, or out of its bounds. */
function breaking(schema: any): unknown[] {
  const out: unknown[] = [{ an: 'object' }, [1, [2]], 12.5];
  if (schema?.maxLength !== undefined) out.push('x'.repeat(schema.maxLength + 1));
  if (schema?.maximum !== undefined) out.push(schema.maximum + 1);
  if (schema?.minimum !== undefined) out.push(schema.minimum - 1);
  return out;
}

const operations = [...methods.keys()].sort();

/** Methods whose success path generated requests must reach, whatever the seed. */
const MUST_SUCCEED = [
  'addListItem',
  'updateListItem',
  'addListSchemaField',
  'deleteListItem',
  'getListItems',
  'getListSchema',
];

describe(`requests generated from the document (seed ${SEED})`, () => {
  it('valid by the document: never a 5xx, an undocumented status, or a 422 the document does not explain', async () => {
    console.log(
      `document conformance: seed ${SEED}, ${RUNS} runs per operation (DOC_SEED, DOC_RUNS)`,
    );
    const succeeded = new Set<string>();
    for (const name of operations) {
      // each operation starts from fixtures of its own: a delete before it took away the last ones
      await freshFixtures();
      await fc.assert(
        fc.asyncProperty(validRequests(name), async (params) => {
          const res = await call(t.app, name, params, { key: me.apiKey });
          expect(res.status, `${name} ${JSON.stringify(params)}`).toBeLessThan(500);
          expect(documentedStatuses(name).has(res.status), `${name} answered ${res.status}`).toBe(
            true,
          );
          if (res.status === 422) {
            const unexplained = Object.keys(res.body.errors ?? {}).filter(
              (k) => !DATA_DEPENDENT.test(k),
            );
            expect(unexplained, `${name} ${JSON.stringify(params)} → ${res.body.message}`).toEqual(
              [],
            );
          }
          if (res.status < 300) succeeded.add(name);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
    // the fixtures lead the methods to their success paths, not only to their refusals
    console.log(
      `document conformance: no success for ${operations.filter((m) => !succeeded.has(m)).join(', ')}`,
    );
    for (const name of MUST_SUCCEED)
      expect(succeeded.has(name), `${name} never succeeded`).toBe(true);
  }, 240_000);

  it('a value the document forbids is refused with a 4xx', async () => {
    for (const name of operations) {
      await freshFixtures();
      const schema = mergedAllOf(schemas()[paramsSchemaOf(name).$ref.split('/').pop()], schemas());
      const validate = ajv.compile({ $ref: `doc${paramsSchemaOf(name).$ref}` });
      const properties = Object.entries((schema.properties ?? {}) as Record<string, any>);
      if (properties.length === 0) continue;
      await fc.assert(
        fc.asyncProperty(
          validRequests(name),
          fc.constantFrom(...properties),
          fc.nat(),
          async (params, [key, propertySchema], pick) => {
            const wrong = breaking(propertySchema);
            const broken = { ...params, [key]: wrong[pick % wrong.length] };
            fc.pre(validate(broken) === false);
            const res = await call(t.app, name, broken, { key: me.apiKey });
            expect(
              res.status >= 400 && res.status < 500,
              `${name} ${key}=${JSON.stringify(broken[key]).slice(0, 80)} answered ${res.status}`,
            ).toBe(true);
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
  }, 240_000);
});
