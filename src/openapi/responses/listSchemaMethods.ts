import { z } from 'zod';
import type { MethodDoc } from '../methodDoc.js';
import { ListSchema } from './listSchemas.js';
import { pageOf } from './paging.js';

/** A fresh object per method, so each response gets its own component name. */
const one = () => z.object({ data: ListSchema });

export const listSchemaDocs: Record<string, MethodDoc> = {
  getListSchemas: {
    tag: 'List schemas',
    summary: 'Lists of every project the key holder owns, 50 per page',
    description: 'Spec 4.1. The page size is fixed at 50.',
    changesData: false,
    success: [{ status: 200, description: 'A page of list schemas', body: pageOf(ListSchema) }],
  },
  getListSchema: {
    tag: 'List schemas',
    summary: 'One list schema',
    description:
      "Spec 4.2. `404` (with `errors.schema_id`) when the list does not exist or was deleted; `403` for another account's project.",
    changesData: false,
    success: [{ status: 200, description: 'The list schema', body: one() }],
  },
  createListSchema: {
    tag: 'List schemas',
    summary: 'Create a list with 1 to 30 fields',
    description:
      "Spec 4.3. Give `project_uuid` or `bot_id` (if both, `bot_id` wins). Fields keep the order sent. `403` beyond 5000 lists per project or for another account's bot or project; `422` for a repeated or reserved slug (`fields.N.slug`) or an unknown currency (`fields.N.currency`).",
    changesData: true,
    success: [{ status: 201, description: 'The created list schema', body: one() }],
  },
  deleteListSchema: {
    tag: 'List schemas',
    summary: 'Delete a list and its records',
    description: 'Spec 4.4. `404` when already deleted.',
    changesData: true,
    success: [{ status: 204, description: 'Deleted' }],
  },
  addListSchemaField: {
    tag: 'List schemas',
    summary: 'Add a field at the end of a list',
    description:
      'Spec 4.5. Existing records do not change. `422` when the slug exists (`field.slug`) or a `money` field lacks a known currency (`field.currency`).',
    changesData: true,
    success: [{ status: 204, description: 'Field added' }],
  },
  deleteListSchemaField: {
    tag: 'List schemas',
    summary: 'Delete a field and erase its values in every record',
    description: 'Spec 4.6. Irreversible. `422` (key `slug`) when no field has the slug.',
    changesData: true,
    success: [{ status: 204, description: 'Field deleted' }],
  },
};
