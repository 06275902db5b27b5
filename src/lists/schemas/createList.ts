import { uuidv7 } from 'uuidv7';
import { z } from 'zod';
import type { Caller } from '../../admission/caller.js';
import type { Database } from '../../infra/db/client.js';
import { domainErrors } from '../../shared/domainErrors.js';
import { assignSlots } from '../slots.js';
import { checkParams, throwIfInvalid } from './checkParams.js';
import { createTargetParams, findCreateTarget } from './createTarget.js';
import { fieldList, flag, requiredText } from './fieldDefinition.js';
import { insertList, MAX_LISTS_PER_PROJECT, type NewList } from './listSchemaRepository.js';
import { violatesUnique } from '../../infra/db/databaseErrors.js';

/** createListSchema's parameters other than where the list goes. */
export const newListParams = z.object({
  name: requiredText(),
  fields: fieldList(),
  // createListSchema: outdated; stored and shown, no effect.
  is_menu: flag(false),
});

/**
 * createListSchema. Order of checks: every parameter, together with whether the bot or project
 * exists (one 422); then whose it is (403); then the project's list cap (403).
 */
export async function createList(db: Database, caller: Caller, raw: unknown, now: Date) {
  const where = checkParams(createTargetParams, raw);
  const list = checkParams(newListParams, raw);
  const found = where.data ? await findCreateTarget(db, caller.accountId, where.data) : undefined;
  throwIfInvalid(where.errors, list.errors, found?.errors);
  const target = found!.target!;
  const params = list.data!;

  if (target.ownerId !== caller.accountId) {
    throw target.botId === null ? domainErrors.foreignProject() : domainErrors.foreignBot();
  }
  const row = await insertWithFreshKey(db, (id) => ({
    id,
    projectUuid: target.projectUuid,
    ownerId: target.ownerId,
    botId: target.botId,
    name: params.name,
    fields: assignSlots(params.fields),
    isMenu: params.is_menu,
    createdAt: now,
    updatedAt: now,
  }));
  if (!row) {
    throw domainErrors.tooManyLists(MAX_LISTS_PER_PROJECT);
  }
  return row;
}

/**
 * Records name their list by a 64-bit hash of its id (list_items.list_key), unique among an
 * owner's lists. Two of an owner's lists hashing alike is a chance of about one in 10^10 even
 * for 100,000 lists; when it happens the insert is refused and the list takes another id.
 */
async function insertWithFreshKey(db: Database, list: (id: string) => NewList) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertList(db, list(uuidv7()));
    } catch (err) {
      if (attempt === 3 || !violatesUnique(err, LIST_KEY_CONSTRAINT)) throw err;
    }
  }
}

const LIST_KEY_CONSTRAINT = 'list_schemas_list_key_idx';
