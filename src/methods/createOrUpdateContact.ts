import { Contact } from '../openapi/responses/contactResponses.js';
import { z } from 'zod';
import { API_MESSENGERS, MESSENGER_IDS, pickIdParam } from '../contacts/messengers.js';
import {
  boundedInt,
  emailParam,
  optionalBoundedInt,
  optionalText,
  phoneParam,
  tagsParam,
  requiredTextOf,
  trimmedOrUnsent,
} from '../contacts/contactParams.js';
import { presentContact } from '../contacts/contactPresenter.js';
import { upsertOwnContact, type ContactUpsert } from '../contacts/upsertRepository.js';
import { upsertLockKey } from '../contacts/contactLocks.js';
import { SCHEMA_RULES, sentJsonSchema } from '../shared/paramTypes.js';
import { created, defineMethod, ok } from './method.js';

const messengerIdParam = (field: string) => optionalBoundedInt(field, 1, Number.MAX_SAFE_INTEGER);

/** Usernames are kept without `@` (the contact shape); a leading one is dropped. */
const usernameParam = (field: string) =>
  optionalText(field).transform((s) => (s?.startsWith('@') ? s.slice(1) || undefined : s));

/** A contact's own parameters: all of createOrUpdateContact's but `bot_id`. */
const contactShape = {
  messenger: z.preprocess(
    trimmedOrUnsent,
    z.enum(API_MESSENGERS, {
      error: 'The messenger field must be one of: telegram, max, viber, vk.',
    }),
  ),
  name: requiredTextOf('name'),
  telegram_id: messengerIdParam('telegram_id'),
  telegram_username: usernameParam('telegram_username'),
  max_id: messengerIdParam('max_id'),
  max_user_id: messengerIdParam('max_user_id'),
  max_username: usernameParam('max_username'),
  vk_id: messengerIdParam('vk_id'),
  vk_user_id: messengerIdParam('vk_user_id'),
  viber_id: optionalText('viber_id'),
  phone: phoneParam(),
  email: emailParam(),
  address: optionalText('address'),
  tags: tagsParam(),
};

/** `object` with the rule that the messenger's ID is sent, checked and documented alike. */
function withMessengerId<T extends z.ZodObject>(object: T) {
  return object
    .superRefine(
      (p, ctx) => {
        // Runs even when other fields failed, so one 422 lists every failing field (the error rules).
        // p.messenger is the raw input when it failed its own check: look it up only as an
        // own key, so an object or `constructor` never reaches the table.
        const messenger: unknown = p.messenger;
        if (typeof messenger !== 'string' || !Object.hasOwn(MESSENGER_IDS, messenger)) return;
        const id = MESSENGER_IDS[messenger as keyof typeof MESSENGER_IDS];
        if (pickIdParam(id, p)) return;
        const param = id.params[0] ?? id.column;
        ctx.addIssue({
          code: 'custom',
          path: [param],
          message: `The ${param} field is required when messenger is ${messenger}.`,
        });
      },
      { when: () => true },
    )
    .meta({
      // the same rule for the document, from the same table: a messenger's ID is required
      [SCHEMA_RULES]: {
        allOf: Object.entries(MESSENGER_IDS).map(([messenger, id]) => ({
          if: { properties: { messenger: { const: messenger } }, required: ['messenger'] },
          then: { anyOf: id.params.map(sentJsonSchema) },
        })),
      },
    });
}

const params = withMessengerId(
  z.object({
    bot_id: z.preprocess(
      trimmedOrUnsent,
      boundedInt('bot_id', Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    ),
    ...contactShape,
  }),
);

/** One contact of createOrUpdateContacts, for its document (the handler checks it with `params`). */
export const contactOfBatch = withMessengerId(z.object(contactShape));

/** createOrUpdateContact: find the contact by the messenger's ID in the bot; update it, else create it. */
export const createOrUpdateContact = defineMethod({
  name: 'createOrUpdateContact',
  tag: 'Contacts',
  summary: 'Find a contact by messenger ID and update it, or create it',
  description:
    'Creating adds the contact to the bot without starting its scenario or sending anything. On update `name` always changes; `email`, `address`, `phone` and usernames change only when passed non-empty; `tags` are replaced when passed. `404` (`errors.bot_id`) when no own bot has this `bot_id`.',
  example: {
    bot_id: 42,
    messenger: 'telegram',
    telegram_id: 123456789,
    name: 'Ada',
    tags: ['vip'],
  },
  changesData: true,
  success: [
    {
      status: 200,
      description: 'An existing contact was updated',
      body: z.object({ data: Contact }),
    },
    { status: 201, description: 'A new contact was created', body: z.object({ data: Contact }) },
  ],
  params,
  async handle(p, { caller, deps }) {
    const upsert = toContactUpsert(p);
    const key = upsertLockKey(caller.accountId, upsert.botId, upsert);
    const result = await deps.contactWrites.hold([key], () =>
      upsertOwnContact(deps.db, caller.accountId, upsert),
    );
    const body = { data: presentContact(result.contact) };
    return result.created ? created(body) : ok(body);
  },
});

export type ContactParams = z.output<typeof params>;
export { params as contactParams };

/** The upsert the validated parameters describe. */
export function toContactUpsert(p: ContactParams): ContactUpsert {
  const id = MESSENGER_IDS[p.messenger];
  return {
    botId: p.bot_id,
    messenger: p.messenger,
    messengerId: pickIdParam(id, p)?.value as number | string,
    name: p.name,
    username: id.username ? p[id.username] : undefined,
    phone: p.phone,
    email: p.email,
    address: p.address,
    tags: p.tags,
  };
}
