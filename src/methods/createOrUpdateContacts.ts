import { z } from 'zod';
import { contactKey, upsertContactsInBulk } from '../contacts/bulkUpsert.js';
import { lockContactKeys, upsertLockKey } from '../contacts/contactLocks.js';
import { presentContact } from '../contacts/contactPresenter.js';
import { upsertContact, type ContactUpsert } from '../contacts/upsertRepository.js';
import type { Database } from '../infra/db/client.js';
import { findOwnBot } from '../bots/botLookup.js';
import { domainErrors } from '../shared/domainErrors.js';
import { Contact } from '../openapi/responses/contactResponses.js';
import { oneOrMany, boolParam, optionalParam } from '../shared/paramTypes.js';
import { validateParams } from '../shared/validate.js';
import { batchOutcome } from './batchOutcome.js';
import { failedOutcome, rekeyed } from './batchItems.js';
import { contactParams, toContactUpsert } from './createOrUpdateContact.js';
import { defineMethod, ok } from './method.js';

export const MAX_BATCH_CONTACTS = 500;

/** createOrUpdateContacts: up to 500 contacts of one bot created or updated in one request. */
export const createOrUpdateContacts = defineMethod({
  name: 'createOrUpdateContacts',
  tag: 'Contacts',
  summary: 'Create or update up to 500 contacts of a bot at once',
  description: [
    'Each item takes the parameters of `createOrUpdateContact` but `bot_id`, which is given once; errors are keyed `contacts.<index>.<field>`. The batch counts as one request for the rate limit.',
    '',
    '- `atomic` true (the default): one transaction; the first failing contact answers `422` for the whole batch and nothing is written; else `200` with one outcome per contact: `{index, status: 201 (created) or 200 (updated), data}`.',
    '- `atomic` false: each contact on its own; failing ones get `{index, status: 422, errors}`.',
  ].join('\n'),
  example: {
    bot_id: 42,
    contacts: [
      { messenger: 'telegram', telegram_id: 123456789, name: 'Ada' },
      { messenger: 'vk', vk_id: 98765, name: 'Grace', tags: ['vip'] },
    ],
  },
  changesData: true,
  success: [
    {
      status: 200,
      description: 'One outcome per contact, in input order',
      body: z.object({ data: z.array(batchOutcome(Contact)) }),
    },
  ],
  params: z.object({
    bot_id: contactParams.shape.bot_id.describe('The bot every contact belongs to'),
    contacts: oneOrMany(
      z
        .array(z.record(z.string(), z.unknown()), { error: 'must be an array' })
        .min(1, 'must have at least 1 item')
        .max(MAX_BATCH_CONTACTS, `may not have more than ${MAX_BATCH_CONTACTS} items`),
    ),
    atomic: optionalParam(boolParam()).describe('All or nothing (default true)'),
  }),
  async handle(params, { caller, deps }) {
    // The bot is the batch's, not an item's: not the caller's, the whole batch is a 404.
    const bot = await findOwnBot(deps.db, caller.accountId, params.bot_id);
    if (!bot) throw domainErrors.botNotFound();
    const atomic = params.atomic ?? true;
    const checked = params.contacts.map((contact, index) => {
      try {
        const p = validateParams(contactParams, { ...contact, bot_id: params.bot_id });
        return { index, upsert: toContactUpsert(p) };
      } catch (err) {
        return { index, failed: failedOutcome(rekeyed(err, `contacts.${index}`), index), err };
      }
    });
    const failed = checked.filter((c) => 'failed' in c);
    if (atomic && failed.length > 0) throw rekeyed(failed[0]!.err, `contacts.${failed[0]!.index}`);
    const valid = checked.flatMap((c) => ('upsert' in c ? [c] : []));
    const keys = new Set(valid.map((v) => contactKey(v.upsert!)));
    // One messenger ID twice in a batch: each in turn, as separate calls would do.
    const written =
      keys.size === valid.length
        ? await upsertContactsInBulk(
            deps.db,
            caller.accountId,
            bot.id,
            valid.map((v) => v.upsert!),
          )
        : await oneByOne(
            deps.db,
            caller.accountId,
            valid.map((v) => v.upsert!),
          );
    const outcomes = [
      ...failed.map((f) => f.failed!),
      ...written.map((w, i) => ({
        index: valid[i]!.index,
        status: w.created ? 201 : 200,
        data: w.contact,
      })),
    ].sort((a, b) => a.index - b.index);
    return ok({ data: outcomes });
  },
});

async function oneByOne(db: Database, accountId: number, upserts: ContactUpsert[]) {
  return db.transaction(async (tx) => {
    // every key locked first, in the one order all contact writes use (contactLocks.ts)
    await tx.execute(lockContactKeys(upserts.map((u) => upsertLockKey(accountId, u.botId, u))));
    const out = [];
    for (const u of upserts) {
      const result = await upsertContact(tx, accountId, u);
      if (!result) throw domainErrors.botNotFound();
      out.push({ contact: presentContact(result.contact), created: result.created });
    }
    return out;
  });
}
