import { z } from 'zod';
import { countCallerContacts } from '../contacts/listing.js';
import { contactFilterParams, toFilters } from '../contacts/contactParams.js';
import { defineMethod, ok } from './method.js';

/** getNumberOfContacts: the getContacts matches counted, `{count}` at the top level. */
export const getNumberOfContacts = defineMethod({
  name: 'getNumberOfContacts',
  tag: 'Contacts',
  summary: 'How many contacts match',
  description: 'The count is at the top level, without a `data` wrapper.',
  example: { bot_id: 42, date_from: 1735689600 },
  changesData: false,
  success: [{ status: 200, description: 'The count', body: z.object({ count: z.int() }) }],
  params: z.object(contactFilterParams),
  async handle(params, { caller, deps }) {
    return ok({ count: await countCallerContacts(deps, caller.accountId, toFilters(params)) });
  },
});
