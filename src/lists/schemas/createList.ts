import { uuidv7 } from 'uuidv7';
import { z } from 'zod';
import type { Caller } from '../../admission/caller.js';
import type { Database } from '../../infra/db/client.js';
import { domainErrors } from '../../shared/domainErrors.js';
import { assignSlots } from '../slots.js';
import { checkParams, throwIfInvalid } from './checkParams.js';
import { createTargetParams, findCreateTarget } from './createTarget.js';
import { fieldList, flag, requiredText } from './fieldDefinition.js';
import { insertList, MAX_LISTS_PER_PROJECT } from './listSchemaRepository.js';

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
  const row = await insertList(db, {
    id: uuidv7(),
    projectUuid: target.projectUuid,
    ownerId: target.ownerId,
    botId: target.botId,
    name: params.name,
    fields: assignSlots(params.fields),
    isMenu: params.is_menu,
    createdAt: now,
    updatedAt: now,
  });
  if (!row) {
    throw domainErrors.tooManyLists(MAX_LISTS_PER_PROJECT);
  }
  return row;
}
