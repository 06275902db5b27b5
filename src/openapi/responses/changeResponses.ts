import { z } from 'zod';
import { CHANGE_TYPES } from '../../changes/changeTypes.js';
import { Contact } from './contactResponses.js';
import { ListItem } from './listItemResponses.js';
import { ListSchema } from './listSchemaResponses.js';

/** One change of the feed (getChanges). */
export const Change = z.object({
  id: z.int().describe('Unique; not in feed order across batches: follow `next_cursor`'),
  type: z.enum(CHANGE_TYPES),
  occurred_at: z.iso.datetime(),
  schema_id: z.string().optional().describe('list_schema.* and list_item.* changes'),
  item_id: z.string().optional().describe('list_item.* changes'),
  bot_id: z.int().optional().describe('contact.* changes'),
  contact_id: z.int().optional().describe('contact.* changes'),
  data: z
    .union([ListItem, ListSchema, Contact, z.null()])
    .describe(
      'What changed, after the change, as the read methods show it: the list item, the list schema or the contact; null for deletes',
    ),
});

export const ChangesMeta = z.object({
  next_cursor: z.string().describe('Pass as `since` to read on; save it to resume later'),
  has_more: z.boolean().describe('More changes were already there: read again at once'),
});
