import { z } from 'zod';
import type { MethodDoc } from '../methodDoc.js';
import { Contact } from './contacts.js';
import { ContactPageMeta, pageOf } from './paging.js';

const offsetPage = z.object({
  data: z.array(Contact),
  meta: z.object({ offset: z.int(), limit: z.int(), total: z.int() }),
});

export const contactDocs: Record<string, MethodDoc> = {
  getContacts: {
    tag: 'Contacts',
    summary: "Contacts of the key holder's bots, by ascending id",
    description: [
      'Spec 4.11. Two paging modes:',
      '- page mode (`page`, `count` 1–500): the paging envelope; iterate until `links.next` is null, resending the other parameters;',
      '- offset mode (passing `offset` or `limit` 1–1000 selects it): `{data, meta: {offset, limit, total}}`; the export is complete when `data` has fewer items than `limit` or `offset + limit` reaches `meta.total`.',
      '',
      'Cap a long export with `date_to` so it does not grow while paging. A `bot_id` that is not yours yields an empty list.',
    ].join('\n'),
    changesData: false,
    success: [
      {
        status: 200,
        description: 'A page of contacts (page mode) or a slice (offset mode)',
        body: z.union([pageOf(Contact, ContactPageMeta), offsetPage]),
      },
    ],
  },
  getNumberOfContacts: {
    tag: 'Contacts',
    summary: 'How many contacts match',
    description: 'Spec 4.12. The count is at the top level, without a `data` wrapper.',
    changesData: false,
    success: [{ status: 200, description: 'The count', body: z.object({ count: z.int() }) }],
  },
  createOrUpdateContact: {
    tag: 'Contacts',
    summary: 'Find a contact by messenger ID and update it, or create it',
    description:
      'Spec 4.13. Creating adds the contact to the bot without starting its scenario or sending anything. On update `name` always changes; `email`, `address`, `phone` and usernames change only when passed non-empty; `tags` are replaced when passed. `404` (`errors.bot_id`) when no own bot has this `bot_id`.',
    changesData: true,
    success: [
      {
        status: 200,
        description: 'An existing contact was updated',
        body: z.object({ data: Contact }),
      },
      { status: 201, description: 'A new contact was created', body: z.object({ data: Contact }) },
    ],
  },
};
