import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { call, type CallResult } from './call.js';
import type { Tenant } from './factories.js';

/** A title and a GBP sum, as createListSchema takes them: the list the schema read tests make. */
export const TITLE_AND_SUM_FIELDS = [
  { name: 'Title', slug: 'title', type: 'string' },
  { name: 'Sum', slug: 'sum', type: 'money', currency: 'GBP' },
];

/** `method` called with the tenant's key, asserting `status`; the answer's body. */
async function callAsserting(
  app: FastifyInstance,
  tenant: Tenant,
  method: string,
  params: Record<string, unknown>,
  status: number,
): Promise<CallResult['body']> {
  const res = await call(app, method, params, { key: tenant.apiKey });
  expect(res.status).toBe(status);
  return res.body;
}

/** A list made through createListSchema (asserting its 201), for tests of other methods. */
export async function createListViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  fields: Record<string, unknown>[],
  { name = 'L', projectUuid = tenant.projectUuid }: { name?: string; projectUuid?: string } = {},
): Promise<{ id: string } & Record<string, unknown>> {
  const params = { name, project_uuid: projectUuid, fields };
  return (await callAsserting(app, tenant, 'createListSchema', params, 201)).data;
}

/** A list item added through addListItem (asserting its 201). */
export async function addItemViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  schemaId: string,
  data: Record<string, unknown>,
): Promise<{ id: string } & Record<string, unknown>> {
  const params = { schema_id: schemaId, data };
  return (await callAsserting(app, tenant, 'addListItem', params, 201)).data;
}

/** A field added to a list through addListSchemaField (asserting its 204). */
export async function addFieldViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  schemaId: string,
  field: Record<string, unknown>,
): Promise<void> {
  await callAsserting(app, tenant, 'addListSchemaField', { schema_id: schemaId, field }, 204);
}

/** Records added through addListItems in one batch (asserting its 201). */
export async function addItemsViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  schemaId: string,
  items: Record<string, unknown>[],
): Promise<void> {
  await callAsserting(app, tenant, 'addListItems', { schema_id: schemaId, items }, 201);
}

/** A list of a city and a price with twenty records: Oslo at the odd prices 1–19, Bergen at the even. */
export async function cityPriceListViaApi(app: FastifyInstance, tenant: Tenant): Promise<string> {
  const list = await createListViaApi(app, tenant, [
    { name: 'City', slug: 'city', type: 'string' },
    { name: 'Price', slug: 'price', type: 'number' },
  ]);
  for (let i = 0; i < 20; i++)
    await addItemViaApi(app, tenant, list.id, { city: i % 2 ? 'Oslo' : 'Bergen', price: i });
  return list.id;
}
