import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { call } from './call.js';
import type { Tenant } from './factories.js';

/** A title and a GBP sum, as createListSchema takes them: the list the schema read tests make. */
export const TITLE_AND_SUM_FIELDS = [
  { name: 'Title', slug: 'title', type: 'string' },
  { name: 'Sum', slug: 'sum', type: 'money', currency: 'GBP' },
];

/** A list made through createListSchema (asserting its 201), for tests of other methods. */
export async function createListViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  fields: Record<string, unknown>[],
  { name = 'L', projectUuid = tenant.projectUuid }: { name?: string; projectUuid?: string } = {},
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await call(
    app,
    'createListSchema',
    { name, project_uuid: projectUuid, fields },
    { key: tenant.apiKey },
  );
  expect(res.status).toBe(201);
  return res.body.data;
}

/** A list item added through addListItem (asserting its 201). */
export async function addItemViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  schemaId: string,
  data: Record<string, unknown>,
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await call(app, 'addListItem', { schema_id: schemaId, data }, { key: tenant.apiKey });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** A field added to a list through addListSchemaField (asserting its 204). */
export async function addFieldViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  schemaId: string,
  field: Record<string, unknown>,
): Promise<void> {
  const res = await call(
    app,
    'addListSchemaField',
    { schema_id: schemaId, field },
    { key: tenant.apiKey },
  );
  expect(res.status).toBe(204);
}

/** Records added through addListItems in one batch (asserting its 201). */
export async function addItemsViaApi(
  app: FastifyInstance,
  tenant: Tenant,
  schemaId: string,
  items: Record<string, unknown>[],
): Promise<void> {
  const res = await call(
    app,
    'addListItems',
    { schema_id: schemaId, items },
    { key: tenant.apiKey },
  );
  expect(res.status).toBe(201);
}
