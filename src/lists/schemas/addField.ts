import { z } from 'zod';
import type { Caller } from '../../admission/caller.js';
import type { ListSchemaRow } from '../../infra/db/schema/listSchemas.js';
import { domainErrors, type ValidationErrors } from '../../shared/domainErrors.js';
import { idParam } from '../../shared/paramTypes.js';
import type { ListsContext } from '../context.js';
import { requireOwnList } from '../listAccess.js';
import { checkParams, throwIfInvalid } from './checkParams.js';
import { appendField, MAX_FIELDS_PER_LIST } from './fieldRepository.js';
import { fieldDefinition } from './fieldDefinition.js';

/** addListSchemaField's parameters. */
export const addFieldParams = z.object({ schema_id: idParam(), field: fieldDefinition('add') });

const SLUG_TAKEN = 'The field.slug has already been taken.';

/**
 * addListSchemaField. Order of checks: the list (404 / 403) when `schema_id` is usable; then every
 * parameter, together with whether the slug is already in the list (one 422); then the
 * write, which re-checks the slug under the list's row lock (concurrent adds).
 */
export async function addField(lists: ListsContext, caller: Caller, raw: unknown) {
  const checked = checkParams(addFieldParams, raw);
  const schemaId = checked.data?.schema_id ?? checkParams(schemaIdOnly, raw).data?.schema_id;
  const list = schemaId === undefined ? undefined : await requireOwnList(lists, caller, schemaId);
  throwIfInvalid(checked.errors, list ? slugErrors(raw, list) : undefined);
  const { field } = checked.data!;

  switch (await appendField(lists.db, list!.ownerId, list!.id, field, lists.clock())) {
    case 'added':
      return;
    case 'missing':
      throw domainErrors.listNotFound(); // deleted meanwhile
    case 'duplicate':
      throw domainErrors.invalid('field.slug', SLUG_TAKEN);
    case 'erasing':
      throw domainErrors.invalid(
        'field.slug',
        'The values of a deleted field with this slug are still being erased; try again shortly.',
      );
    case 'too_many':
      throw domainErrors.invalid(
        'field',
        `A list cannot have more than ${MAX_FIELDS_PER_LIST} fields.`,
      );
  }
}

const schemaIdOnly = z.object({ schema_id: idParam() });

function slugErrors(raw: unknown, list: ListSchemaRow): ValidationErrors | undefined {
  const slug = (raw as { field?: { slug?: unknown } } | null)?.field?.slug;
  if (typeof slug !== 'string' || !list.fields.some((f) => f.slug === slug)) return undefined;
  return { 'field.slug': [SLUG_TAKEN] };
}
