import { findOwnBot } from '../bots/botLookup.js';
import type { Database } from '../infra/db/client.js';
import { domainErrors } from '../shared/domainErrors.js';
import { checkEach, inBatchOrder, type ItemOutcome } from '../shared/itemOutcomes.js';
import type { JsonText } from '../shared/orderedJson.js';
import { contactKey, upsertContactsInBulk } from './bulkUpsert.js';
import { lockContactKeys, upsertLockKey, type ContactWriteOrder } from './contactLocks.js';
import { presentContact } from './contactPresenter.js';
import { upsertOwnContact, type ContactUpsert } from './upsertRepository.js';

/** One contact of a batch, written: its answer and whether it was created. */
export interface UpsertedContact {
  contact: JsonText | Record<string, unknown>;
  created: boolean;
}

/**
 * createOrUpdateContacts: each contact read by `parse` (its 422 keyed `contacts.<index>.<field>`),
 * then the valid ones written in one transaction. The bot is the batch's, not an item's: not
 * the caller's, the whole batch is a 404. `atomic`: the first failing contact fails the batch
 * and nothing is written. Not atomic: each failing contact is its own outcome.
 */
export async function upsertContactBatch<T>(
  db: Database,
  queue: ContactWriteOrder,
  accountId: number,
  botId: number,
  contacts: readonly T[],
  atomic: boolean,
  parse: (contact: T) => ContactUpsert,
): Promise<ItemOutcome<UpsertedContact>[]> {
  const bot = await findOwnBot(db, accountId, botId);
  if (!bot) throw domainErrors.botNotFound();
  const { passed: valid, failed } = checkEach('contacts', contacts, (contact) => ({
    upsert: parse(contact),
  }));
  const [first] = failed.values();
  if (atomic && first) throw first.error;
  const upserts = valid.map((v) => v.upsert);
  // One messenger ID twice in a batch: each in turn, as separate calls would do.
  const keys = upserts.map((u) => upsertLockKey(accountId, u.botId, u));
  const written: UpsertedContact[] = await queue.hold(keys, () =>
    new Set(upserts.map(contactKey)).size === upserts.length
      ? upsertContactsInBulk(db, accountId, bot.id, upserts, keys)
      : upsertInTurn(db, accountId, upserts, keys),
  );
  return inBatchOrder(
    failed.values(),
    written.map((result, i) => ({ index: valid[i]!.index, result })),
  );
}

/**
 * The contacts one after the other, in one transaction, as that many upserts would; `keys`
 * are their lock keys (upsertLockKey), the ones the batch waited for in the process.
 */
async function upsertInTurn(
  db: Database,
  accountId: number,
  upserts: readonly ContactUpsert[],
  keys: readonly string[],
): Promise<UpsertedContact[]> {
  return db.transaction(async (tx) => {
    // every key locked first, in the one order all contact writes use (contactLocks.ts)
    await tx.execute(lockContactKeys(keys));
    const out: UpsertedContact[] = [];
    for (const u of upserts) {
      const result = await upsertOwnContact(tx, accountId, u);
      out.push({ contact: presentContact(result.contact), created: result.created });
    }
    return out;
  });
}
