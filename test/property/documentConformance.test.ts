import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methods } from '../../src/methods/methodRegistry.js';
import { booleanFrom } from '../../src/shared/paramTypes.js';
import type { OpenApiDocument } from '../../src/openapi/document.js';
import { call } from '../helpers/call.js';
import { makeTenant } from '../helpers/factories.js';
import { fetchDocument } from '../helpers/openapiConformance.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';
import { arbitraryOf, JSON_VALUES, mergedAllOf, type OpenValues } from './schemaArbitrary.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/**
 * The document and the server cannot drift: requests are generated from the document alone,
 * in each encoding it declares — the JSON body (`<name>Params`), the form body
 * (`<name>FormParams`, with its `encoding`) and the GET query string (each query parameter in
 * its style: deepObject, repeated, or `x-bracket-notation`). A request valid by the document is
 * accepted (never a 400, a 5xx, an undocumented status, or a 422 for its shape); one with a
 * parameter the document forbids is refused with a 422 that names it. Fixtures of the caller
 * (a list with a record, a webhook, its bot) stand in for ids half of the time, so the success
 * paths are reached too. Seed in the test name and in every failure (DOC_SEED to replay).
 */
const SEED = Number(process.env.DOC_SEED ?? Math.floor(Math.random() * 2 ** 31));
const VALID_RUNS = Number(process.env.DOC_RUNS ?? 16);
const INVALID_RUNS = Number(process.env.DOC_INVALID_RUNS ?? 20);

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type Encoding = 'json' | 'form' | 'query';
const ENCODINGS: Encoding[] = ['json', 'form', 'query'];

/**
 * A 422 on these parameters can come from data the document cannot see, whatever the shape:
 * a record's values against its list's fields, slugs that must (not) exist in the list, a
 * duplicate slug in one request, a cursor, a URL's DNS answer, and createListSchema's bot or
 * project that is not the caller's (a 422, as Laravel's `exists` rule answers).
 */
const DATA_DEPENDENT =
  /^(data|filters|order_by|slug|url|since|bot_id|project_uuid)(\.|$)|^items\.\d+\.(data\.)?[^.]+$|^(fields\.\d+|field)\.slug$/;

/** In text, a value the document leaves open is text (its keys the document states). */
const TEXT_VALUES: OpenValues = { ...JSON_VALUES, any: fc.string({ maxLength: 12 }) };

let t: TestApp;
let doc: OpenApiDocument;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

beforeAll(async () => {
  t = await startTestApp({
    env: { RATE_LIMIT_PER_MINUTE: '1000000', WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
  doc = await fetchDocument(t.app);
  ajv.addSchema({ $id: 'doc', components: { schemas: doc.components.schemas } });
});
afterAll(() => t.close());

const schemas = () => doc.components.schemas as Record<string, Json>;
const operation = (name: string) => doc.paths[`/${name}`] as Json;

/** The component a request in `encoding` is described by (a query string is a form's text). */
const schemaId = (name: string, encoding: Encoding) =>
  encoding === 'json' ? `${name}Params` : `${name}FormParams`;

function validatorOf(id: string): ValidateFunction {
  let v = validators.get(id);
  if (!v) {
    v = ajv.compile({ $ref: `doc#/components/schemas/${id}` });
    validators.set(id, v);
  }
  return v;
}

/** How each parameter travels as text: the form body's encoding, the query's own styles. */
function stylesOf(name: string, encoding: Encoding): Record<string, Json> {
  if (encoding === 'form') {
    return (
      operation(name).post.requestBody.content['application/x-www-form-urlencoded'].encoding ?? {}
    );
  }
  return Object.fromEntries(
    (operation(name).get.parameters as Json[])
      .filter((p) => p.in === 'query')
      .map((p) => [p.name, p]),
  );
}

/** Text in the declared styles: repeated for `style: form` arrays, bracket notation otherwise. */
function encodeText(params: Json, styles: Record<string, Json>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    // repeated names carry plain values only: anything else is written in brackets
    if (styles[name]?.style === 'form' && Array.isArray(value) && value.every(isScalar)) {
      for (const v of value) parts.push(qs.stringify({ [name]: v }));
    } else {
      const text = qs.stringify({ [name]: value }, { arrayFormat: 'indices' });
      if (text) parts.push(text);
    }
  }
  return parts.join('&');
}

interface Sent {
  status: number;
  body: any;
}

async function send(name: string, encoding: Encoding, params: Json, key: string): Promise<Sent> {
  if (encoding === 'json') return call(t.app, name, params, { key });
  const text = encodeText(params, stylesOf(name, encoding));
  const headers = { accept: 'application/json', authorization: `Bearer ${key}` };
  const res =
    encoding === 'query'
      ? await t.app.inject({ method: 'GET', url: `/api/v1/${name}?${text}`, headers })
      : await t.app.inject({
          method: 'POST',
          url: `/api/v1/${name}`,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: text,
        });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
}

interface World {
  key: string;
  fixtures: Json;
}

/** A tenant of its own (lists and webhooks are capped per account) with a list, a record and a webhook. */
async function freshWorld(name: string): Promise<World> {
  const me = await makeTenant(t.db);
  const list = await createListViaApi(t.app, me, [
    { slug: 'title', name: 'Title', type: 'string', is_required: false },
  ]);
  const item = await addItemViaApi(t.app, me, list.id, { title: 'fixture' });
  const url = 'http://127.0.0.1:9/';
  const hook = await call(t.app, 'createWebhook', { url }, { key: me.apiKey });
  const items =
    name === 'updateListItems'
      ? [{ item_id: item.id, data: { title: 'changed' } }]
      : [{ title: 'one' }, { title: 'two' }];
  return {
    key: me.apiKey,
    fixtures: {
      schema_id: list.id,
      item_id: item.id,
      item_ids: [item.id],
      slug: 'title',
      data: { title: 'from a fixture' },
      items,
      contacts: [{ messenger: 'telegram', telegram_id: 4242, name: 'Ada' }],
      url,
      bot_id: me.botId,
      project_uuid: me.projectUuid,
      webhook_id: hook.body.data.id,
    },
  };
}

/** Requests valid by the document in `encoding`, fixture values mixed in half of the time. */
function validRequests(name: string, encoding: Encoding, world: World) {
  const id = schemaId(name, encoding);
  const open = encoding === 'json' ? JSON_VALUES : TEXT_VALUES;
  return fc
    .tuple(arbitraryOf(schemas()[id]!, schemas(), open), fc.boolean())
    .map(([generated, useFixtures]) => {
      const params = { ...(generated as Json) };
      if (useFixtures) {
        for (const k of Object.keys(world.fixtures)) if (k in params) params[k] = world.fixtures[k];
      }
      return params;
    })
    .filter((params) => validatorOf(id)(params) === true);
}

/** 422 keys that the request's shape cannot explain; outcomes of atomic=false batches too. */
function shapeRefusals(res: Sent): string[] {
  return refusedKeys(res).filter((k) => !DATA_DEPENDENT.test(k));
}

/**
 * The parameters a 422 names, and those an atomic=false batch refuses item by item (its
 * documented answer: 200 with a 422 outcome per failing item, keyed as the whole batch's).
 */
function refusedKeys(res: Sent): string[] {
  if (res.status === 422) return Object.keys(res.body?.errors ?? {});
  if (res.status !== 200 || !Array.isArray(res.body?.data)) return [];
  return (res.body.data as Json[])
    .filter((outcome) => outcome?.status === 422)
    .flatMap((outcome) => Object.keys(outcome.errors ?? {}));
}

/**
 * Values a parameter's schema may forbid, in any encoding: another kind of value, or one past
 * its bounds. Left out on purpose: text forms the server also reads (`"2"` for 2, `"true"` and
 * `1` for true, blank text for "not sent"), which the conventions state.
 */
function wrongValues(schema: Json): unknown[] {
  const out: unknown[] = [{ an: 'object' }, ['a', 'b'], 'not-a-valid-value !', 12.5];
  const bounds = schema.anyOf?.[0] ?? schema;
  if (bounds.maxLength !== undefined) out.push('x'.repeat(bounds.maxLength + 1));
  if (bounds.maximum !== undefined && bounds.maximum < Number.MAX_SAFE_INTEGER) {
    out.push(bounds.maximum + 1);
  }
  if (bounds.minimum !== undefined && bounds.minimum > Number.MIN_SAFE_INTEGER) {
    out.push(bounds.minimum - 1);
  }
  return out;
}

const operations = [...methods.keys()].sort();

/**
 * Every method's success path is reached, whatever the seed, but createListSchema's: its
 * generated fields must also avoid reserved slugs and each other's, and a seed may not.
 */
const MUST_SUCCEED = operations.filter((m) => m !== 'createListSchema');

const replay = `seed ${SEED} (DOC_SEED=${SEED} replays)`;

describe(`requests generated from the OpenAPI document, ${replay}`, () => {
  it('valid in any declared encoding: accepted, or refused only for data the document cannot see', async () => {
    const succeeded = new Set<string>();
    let sent = 0;
    for (const name of operations) {
      for (const encoding of ENCODINGS) {
        const world = await freshWorld(name);
        const documented = new Set(Object.keys(operation(name).post.responses).map(Number));
        await fc.assert(
          fc.asyncProperty(validRequests(name, encoding, world), async (params) => {
            if (encoding === 'query') {
              expect(queryParameterProblems(name, params), `${name} (${replay})`).toEqual([]);
            }
            const res = await send(name, encoding, params, world.key);
            sent++;
            const what = `${name} via ${encoding} ${JSON.stringify(params).slice(0, 300)} → ${res.status} ${String(JSON.stringify(res.body)).slice(0, 300)} (${replay})`;
            expect(documented.has(res.status), what).toBe(true);
            expect(res.status !== 400 && res.status < 500, what).toBe(true);
            expect(shapeRefusals(res), what).toEqual([]);
            if (res.status < 300) succeeded.add(name);
          }),
          { seed: SEED, numRuns: VALID_RUNS, endOnFailure: true },
        );
      }
    }
    const without = operations.filter((m) => !succeeded.has(m));
    console.log(`document drift: ${sent} valid requests, ${replay}; never succeeded: [${without}]`);
    const missing = MUST_SUCCEED.filter((m) => !succeeded.has(m));
    expect(missing, `never succeeded (${replay})`).toEqual([]);
  }, 120_000);

  it('a parameter the document forbids, at any depth, is refused with a 422 that names it', async () => {
    let sent = 0;
    for (const name of operations) {
      for (const encoding of ENCODINGS) {
        const id = schemaId(name, encoding);
        const properties = Object.entries(
          (mergedAllOf(schemas()[id]!, schemas()).properties ?? {}) as Record<string, Json>,
        );
        if (properties.length === 0) continue;
        const world = await freshWorld(name);
        await fc.assert(
          fc.asyncProperty(
            validRequests(name, encoding, world),
            fc.constantFrom(...properties),
            fc.nat(),
            fc.array(fc.nat(), { maxLength: 3 }),
            async (valid, [key, schema], pick, path) => {
              // the ids that exist: the refusal must be for the value, not a lookup
              const params = { ...valid, ...pickFixtures(valid, world) };
              const wrong = wrongValues(schema)[pick % wrongValues(schema).length];
              const at = (v: unknown) => ({ ...params, [key]: replaceAt(params[key], path, v) });
              const broken = at(wrong);
              // as text a number is its digits (12.5 is fine where any text is), and
              // `a[0]=x` is an array or an object's key "0", whichever the parameter takes —
              // at the wrong value, and at any array around it (`items[0]=12.5` is also the
              // one item {"0": "12.5"})
              const readings =
                encoding === 'json'
                  ? []
                  : [
                      ...[false, true].map((indexed) => at(textOf(wrong, indexed))),
                      { ...params, [key]: textOf(broken[key], true) },
                    ];
              // inside a parameter checked against the list (filters of an unknown slug are
              // skipped, whatever their value), the document cannot know what is refused
              fc.pre(!DATA_DEPENDENT.test(key) || broken[key] === wrong);
              fc.pre([broken, ...readings].every((r) => validatorOf(id)(r) === false));
              const res = await send(name, encoding, broken, world.key);
              sent++;
              const what = `${name} via ${encoding} ${key}=${String(JSON.stringify(broken[key])).slice(0, 80)} → ${res.status} ${String(JSON.stringify(res.body)).slice(0, 300)} (${replay})`;
              const named = refusedKeys(res).some((k) => k === key || k.startsWith(`${key}.`));
              expect(named, what).toBe(true);
              const perItem = res.status === 200 && booleanFrom(params.atomic) === false;
              expect(res.status === 422 || perItem, what).toBe(true);
            },
          ),
          { seed: SEED, numRuns: INVALID_RUNS, endOnFailure: true },
        );
      }
    }
    console.log(`document drift: ${sent} invalid requests, ${replay}`);
  }, 120_000);
});

/**
 * The GET parameters state, one by one, what the form schema states of the whole: each
 * value a valid request holds is valid by its own query parameter's schema.
 */
function queryParameterProblems(name: string, params: Json): string[] {
  const problems: string[] = [];
  const form = mergedAllOf(schemas()[`${name}FormParams`]!, schemas()).properties as Json;
  for (const p of operation(name).get.parameters as Json[]) {
    if (p.in !== 'query' || !(p.name in params)) continue;
    // ignored under a condition (project_uuid beside bot_id): listed alone, the parameter
    // shows the rule it has when it counts, which the condition may lift
    if (Object.keys(form[p.name] ?? {}).every((k) => k === 'description')) continue;
    const key = `${name}.${p.name}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(p.schema);
      validators.set(key, validate);
    }
    if (!validate(params[p.name])) problems.push(`${key}: ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

/** The fixture ids among `params`' keys (lists, records, webhooks, the bot). */
function pickFixtures(params: Json, world: World): Json {
  const ids = ['schema_id', 'item_id', 'item_ids', 'webhook_id', 'bot_id', 'project_uuid'];
  return Object.fromEntries(
    ids.filter((k) => k in params).map((k) => [k, world.fixtures[k]] as const),
  );
}

/**
 * `value` with `wrong` in place of the part `path` leads to (each step picks one of a
 * container's entries), or of the whole value when there is no container to descend into.
 */
function replaceAt(value: unknown, path: number[], wrong: unknown): unknown {
  if (typeof value !== 'object' || value === null) return wrong;
  const keys = Object.keys(value);
  const [step, ...rest] = path;
  if (step === undefined || keys.length === 0) return wrong;
  const key = keys[step % keys.length]!;
  const copy: Json = Array.isArray(value) ? [...value] : { ...value };
  copy[key] = replaceAt((value as Json)[key], rest, wrong);
  return copy;
}

const isScalar = (v: unknown) => typeof v !== 'object' || v === null;

/** What a value reads as once written as text: scalars are text, arrays maybe index-keyed objects. */
function textOf(value: unknown, indexed: boolean): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const items = value.map((v) => textOf(v, indexed));
    return indexed ? Object.fromEntries(items.map((v, i) => [String(i), v])) : items;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, textOf(v, indexed)]));
  }
  return value;
}
