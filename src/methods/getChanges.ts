import { z } from 'zod';
import { CHANGE_TYPES } from '../changes/changeTypes.js';
import { decodeCursor, encodeCursor, ORIGIN } from '../changes/cursor.js';
import { presentChanges } from '../changes/presentChange.js';
import { readChanges, type ChangeFilter } from '../changes/readChanges.js';
import { requireOwnBot } from '../bots/botLookup.js';
import { requireOwnListEvenDeleted } from '../lists/listAccess.js';
import { Change, ChangesMeta } from '../openapi/responses/changeResponses.js';
import { domainErrors } from '../shared/domainErrors.js';
import { idParam, intParam, oneOrMany, optionalInt, optionalParam } from '../shared/paramTypes.js';
import { defineMethod, ok } from './method.js';

const NOT_A_CURSOR = 'is not a cursor this service gave out';

/** getChanges: the account's change feed, from a cursor (docs/changes.md). */
export const getChanges = defineMethod({
  name: 'getChanges',
  tag: 'Changes',
  summary: 'Every change to your lists, list items and contacts, in commit order, from a cursor',
  description: [
    "Start without `since` (the oldest change kept), then pass each answer's `meta.next_cursor` as `since`. Following the cursors you see every committed change exactly once, in the order the changes committed — also while many clients write at once; changes rolled back never appear. `has_more` true: more were already there, read again at once; false: you are at the head, poll again later.",
    '',
    'Changes are kept `CHANGES_RETENTION_DAYS` (default 7): a cursor older than that answers `410` with `code: "cursor_expired"` — start again without `since`. `schema_id` (also a deleted list) and `bot_id` (contacts of the bot and changes of its lists) narrow the feed; another account\'s list or bot is `403`. Keep the same filters while following one cursor.',
  ].join('\n'),
  example: { limit: 100 },
  changesData: false,
  primaryOnly: "the feed's batches are bounded by the primary's snapshots (docs/changes.md)",
  success: [
    {
      status: 200,
      description: 'Changes after the cursor, oldest first',
      body: z.object({ data: z.array(Change), meta: ChangesMeta }),
    },
  ],
  params: z.object({
    since: optionalParam(z.string({ error: 'must be a string' })).describe(
      'A `next_cursor` of an earlier answer; omitted: from the oldest change kept',
    ),
    limit: optionalInt(1, 1000, 'must be between 1 and 1000').describe(
      'Changes per answer, 1–1000 (default 100)',
    ),
    schema_id: optionalParam(idParam()).describe('Only changes of this list and its items'),
    bot_id: optionalParam(intParam()).describe(
      'Only contacts of this bot and changes of its lists',
    ),
    types: optionalParam(
      oneOrMany(z.array(z.enum(CHANGE_TYPES, { error: 'is not a change type' })).min(1)),
    ).describe('Only these change types'),
  }),
  async handle(params, { caller, deps }) {
    const cursor = params.since === undefined ? ORIGIN : decodeCursor(params.since.trim());
    if (!cursor) throw domainErrors.invalid('since', `The since ${NOT_A_CURSOR}.`);
    const filter: ChangeFilter = { accountId: caller.accountId, types: params.types };
    if (params.schema_id !== undefined) {
      await requireOwnListEvenDeleted(deps.db, caller, params.schema_id);
      filter.schemaId = params.schema_id;
    }
    if (params.bot_id !== undefined) {
      await requireOwnBot(deps.db, caller.accountId, params.bot_id);
      filter.botId = params.bot_id;
    }
    const page = await readChanges(
      deps.db,
      filter,
      cursor,
      params.limit ?? 100,
      params.since !== undefined,
    );
    const { cipher, layouts } = deps.lists;
    return ok({
      data: await presentChanges(caller.accountId, page.rows, deps.db, cipher, layouts),
      meta: { next_cursor: encodeCursor(page.next), has_more: page.hasMore },
    });
  },
});
