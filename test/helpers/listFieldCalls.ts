import { eq } from 'drizzle-orm';
import { listSchemas } from '../../src/infra/db/schema/listSchemas.js';
import { call, type Transport } from './call.js';
import type { FileApp } from './testAppForFile.js';
import { createListViaApi } from './viaApi.js';

/**
 * What the field method tests (addListSchemaField, deleteListSchemaField) work with: a list of
 * a title and a EUR price made through the API, its fields as stored, and addListSchemaField.
 */
export function listFieldCalls(t: FileApp<'owner'>) {
  const fields = [
    { name: 'Title', slug: 'title', type: 'string' },
    { name: 'Price', slug: 'price', type: 'money', currency: 'EUR' },
  ];
  return {
    /** the id of a new list of the tenant (the owner unless told), in its project unless told */
    createList: async (tenant = t.owner, projectUuid = tenant.projectUuid) =>
      (await createListViaApi(t.app, tenant, fields, { projectUuid })).id,
    storedFields: async (schemaId: string) => {
      const [row] = await t.db.select().from(listSchemas).where(eq(listSchemas.id, schemaId));
      return row!.fields;
    },
    add: (
      schemaId: string,
      field: Record<string, unknown>,
      via: Transport = 'json',
      key = t.owner.apiKey,
    ) => call(t.app, 'addListSchemaField', { schema_id: schemaId, field }, { key, via }),
  };
}
