import { z } from 'zod';

/** The list item shape: a `file` or `image` value as returned. */
export const FileValue = z.looseObject({
  type: z.string(),
  mime_type: z.string().nullable(),
  created_at: z.string().nullable(),
  name: z.string(),
  size: z.int(),
  storage: z.string(),
  caption: z.string().nullable(),
  meta: z.object({
    width: z.number().nullable(),
    height: z.number().nullable(),
    duration: z.number().nullable(),
    codec: z.string().nullable(),
  }),
  url: z.string(),
});

/** A value in a record: text, number, money (main units), bool, date string, ID or file. */
const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.null(), FileValue]);

/** The list item shape: fixed keys, plus one key per list field (slug → value). */
export const ListItem = z
  .object({
    id: z.string(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    contact_id: z.int().optional().describe('Present when a `contact` field links the record'),
    bot_id: z.int().optional().describe('Present when a `bot` field links the record'),
  })
  .catchall(FieldValue);
