import { Contact } from '../openapi/responses/contactResponses.js';
import { ContactPageMeta, pageOf } from '../openapi/responses/pagingResponses.js';
import { z } from 'zod';
import { listContacts } from '../contacts/listing.js';
import { pageLinks } from '../contacts/pageLinks.js';
import { contactFilterParams, optionalBoundedInt, toFilters } from '../contacts/contactParams.js';
import { IGNORED_WHEN, isBlank, sentJsonSchema } from '../shared/paramTypes.js';
import type { ListedContact } from '../contacts/contactRepository.js';
import { JsonText } from '../shared/orderedJson.js';
import { pageEnvelope, pageOffset } from '../shared/paging.js';
import { defineMethod, ok } from './method.js';

/** Highest `page` accepted: far past any real listing, and (page - 1) × 500 stays exact. */
const MAX_PAGE = 1_000_000_000;

/** getContacts: `offset` or `limit` selects offset mode, where `page`/`count` are ignored. */
function isOffsetMode(input: Record<string, unknown>): boolean {
  return (
    (input.offset !== undefined && !isBlank(input.offset)) ||
    (input.limit !== undefined && !isBlank(input.limit))
  );
}

export const getContacts = defineMethod({
  name: 'getContacts',
  tag: 'Contacts',
  summary: "Contacts of the key holder's bots, by ascending id",
  description: [
    'Two paging modes:',
    '- page mode (`page`, `count` 1–500): the paging envelope; iterate until `links.next` is null, resending the other parameters;',
    '- offset mode (passing `offset` or `limit` 1–1000 selects it): `{data, meta: {offset, limit, total}}`; the export is complete when `data` has fewer items than `limit` or `offset + limit` reaches `meta.total`.',
    '',
    'Cap a long export with `date_to` so it does not grow while paging. A `bot_id` that is not yours yields an empty list.',
  ].join('\n'),
  example: { bot_id: 42, page: 1, count: 100 },
  changesData: false,
  success: [
    {
      status: 200,
      description: 'A page of contacts (page mode) or a slice (offset mode)',
      body: z.union([
        pageOf(Contact, ContactPageMeta),
        z.object({
          data: z.array(Contact),
          meta: z.object({ offset: z.int(), limit: z.int(), total: z.int() }),
        }),
      ]),
    },
  ],
  params: z.preprocess(
    (input) =>
      typeof input === 'object' && input !== null && isOffsetMode(input as Record<string, unknown>)
        ? { ...input, page: undefined, count: undefined }
        : input,
    z
      .object({
        ...contactFilterParams,
        count: optionalBoundedInt('count', 1, 500).describe(
          'Page mode: contacts per page, 1 to 500 (default 20); ignored in offset mode',
        ),
        page: optionalBoundedInt('page', 1, MAX_PAGE).describe(
          `Page mode: the page, 1 to ${MAX_PAGE} (default 1); ignored in offset mode`,
        ),
        offset: optionalBoundedInt('offset', 0, Number.MAX_SAFE_INTEGER),
        limit: optionalBoundedInt('limit', 1, 1000),
        // getContacts: accepted and ignored; tags and variables are always returned
        with: z.unknown().optional(),
      })
      .meta({
        [IGNORED_WHEN]: {
          when: { anyOf: [sentJsonSchema('offset'), sentJsonSchema('limit')] },
          properties: ['page', 'count'],
        },
      }),
  ),
  async handle(params, { caller, deps }) {
    const filters = toFilters(params);

    if (params.offset !== undefined || params.limit !== undefined) {
      const offset = params.offset ?? 0;
      const limit = params.limit ?? 100;
      const { items, total } = await listContacts(deps, caller.accountId, filters, {
        offset,
        limit,
      });
      return ok({ data: items.map(asJson), meta: { offset, limit, total } });
    }

    const page = params.page ?? 1;
    const perPage = params.count ?? 20;
    const { items, total } = await listContacts(deps, caller.accountId, filters, {
      offset: pageOffset(page, perPage),
      limit: perPage,
    });
    const envelope = pageEnvelope({
      items: items.map(asJson),
      total,
      page,
      perPage,
      path: `${deps.config.baseUrl}/api/v1/getContacts`,
    });
    const { meta } = envelope;
    return ok({
      ...envelope,
      // the paging envelope: page-mode getContacts also has `meta.links` (Laravel's key order)
      meta: {
        current_page: meta.current_page,
        from: meta.from,
        last_page: meta.last_page,
        links: pageLinks(meta.path, meta.current_page, meta.last_page),
        path: meta.path,
        per_page: meta.per_page,
        to: meta.to,
        total: meta.total,
      },
    });
  },
});

/** Postgres rendered each contact already (contacts/contactJson.ts). */
const asJson = (contact: ListedContact) => new JsonText(contact.json);
