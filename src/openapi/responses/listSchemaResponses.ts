import { z } from 'zod';
import { FIELD_TYPES } from '../../lists/field-types/fieldTypeRegistry.js';

/** The field shape. Loose: "account-created fields may carry additional keys". */
export const FieldDefinition = z.looseObject({
  name: z.string().max(255),
  type: z.enum(FIELD_TYPES),
  currency: z.string().length(3).optional().describe('`money` fields only: ISO 4217 code'),
  is_required: z.boolean(),
  is_hidden: z.boolean(),
  is_encryptable: z.boolean(),
});

export const ListSchema = z.object({
  id: z.string().describe('List ID'),
  fields: z
    .record(z.string(), FieldDefinition)
    .describe('Field slug → field definition, in the order the fields were created'),
  name: z.string(),
  bot_id: z
    .int()
    .nullable()
    .describe('Bot the list was created in; null if created in the project'),
  project: z.uuid().describe('Project that owns the list'),
  is_menu: z.boolean().describe('Outdated flag; no effect on behaviour'),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
