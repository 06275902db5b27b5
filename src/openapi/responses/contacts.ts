import { z } from 'zod';

/** Spec 2.4 variable object; `schema_id`, `deletable` and `payload` are internal. */
export const ContactVariable = z.looseObject({
  id: z.number().describe('Variable ID within the contact'),
  name: z.string(),
  value: z.string().nullable().describe('For media types a link to the file'),
  type: z
    .union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
    .describe('0 text, 1 image, 2 document, 3 audio, 4 video'),
  schema_id: z.unknown().optional(),
  deletable: z.unknown().optional(),
  payload: z.unknown().optional(),
});

/** Spec 2.4: every method returning contacts uses this shape. */
export const Contact = z.object({
  id: z.number(),
  bot_id: z.number(),
  phone: z.string().nullable().describe('Digits only, no `+`'),
  email: z.string().nullable(),
  name: z.string(),
  address: z.string().nullable(),
  messenger: z.enum(['telegram', 'max', 'viber', 'vk', 'web']),
  utm: z
    .union([z.record(z.string(), z.string().nullable()), z.array(z.never()).max(0)])
    .describe('Variables whose names start with `utm_`; an empty array `[]` when there are none'),
  avatar: z.string().nullable(),
  telegram_id: z.string().optional().describe('Telegram contacts only'),
  telegram_username: z.string().nullable().optional().describe('Without `@`; Telegram only'),
  max_user_id: z.number().optional().describe('`max` contacts only'),
  max_username: z.string().nullable().optional().describe('`max` contacts only'),
  vk_user_id: z.number().nullable().describe('Null for non-`vk` contacts'),
  viber_id: z.string().optional().describe('`viber` contacts only'),
  created_at: z.iso.datetime(),
  unsubscribed_at: z.iso.datetime().nullable().describe('Null means subscribed'),
  tags: z.array(z.string()),
  variables: z.array(ContactVariable),
});
