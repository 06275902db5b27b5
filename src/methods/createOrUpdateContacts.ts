import { z } from 'zod';
import { upsertContactBatch } from '../contacts/contactBatch.js';
import { itemOutcomeBodies } from '../http/itemOutcomeBodies.js';
import { Contact } from '../openapi/responses/contactResponses.js';
import { atomicParam, batchParam, DOCUMENTED_AS } from '../shared/paramTypes.js';
import { validateParams } from '../shared/validate.js';
import { batchOutcome } from '../openapi/responses/batchResponses.js';
import { contactOfBatch, contactParams, toContactUpsert } from './createOrUpdateContact.js';
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
    // each contact is checked on its own (atomic=false answers per contact), so the schema
    // here takes any object and the document shows the one the handler checks it with
    contacts: batchParam(
      z.record(z.string(), z.unknown()).meta({ [DOCUMENTED_AS]: contactOfBatch }),
      MAX_BATCH_CONTACTS,
      { objectItems: true },
    ),
    atomic: atomicParam(),
  }),
  async handle({ bot_id, contacts, atomic = true }, { caller, deps }) {
    const parse = (contact: Record<string, unknown>) =>
      toContactUpsert(validateParams(contactParams, { ...contact, bot_id }));
    const outcomes = await upsertContactBatch(
      deps.db,
      deps.contactWrites,
      caller.accountId,
      bot_id,
      contacts,
      atomic,
      parse,
    );
    return ok({
      data: itemOutcomeBodies(outcomes, (w) => ({
        status: w.created ? 201 : 200,
        data: w.contact,
      })),
    });
  },
});
