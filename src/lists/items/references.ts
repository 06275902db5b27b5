import { and, eq, inArray } from 'drizzle-orm';
import type { Caller } from '../../admission/caller.js';
import type { Database } from '../../infra/db/client.js';
import { bots } from '../../infra/db/schema/bots.js';
import { contacts } from '../../infra/db/schema/contacts.js';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import {
  domainErrors,
  type DomainError,
  type ValidationErrors,
} from '../../shared/domainErrors.js';
import { failedItem, type ItemFailure } from '../../shared/itemOutcomes.js';
import { fieldTypeOf } from '../field-types/fieldTypeRegistry.js';
import type { FieldValues } from './validateData.js';

/**
 * The owner of each of `ids` that exists in `table` (contacts copy their bot's owner). The
 * caller's own rows are looked up first (one shard on Citus); only ids not among them are
 * looked up anywhere, to tell another account's (403) from none (422).
 */
async function ownersOf(
  db: Database,
  table: typeof contacts | typeof bots,
  callerId: number,
  ids: number[],
): Promise<Map<number, number>> {
  const owners = new Map<number, number>();
  const own = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.ownerId, callerId), inArray(table.id, ids)));
  for (const row of own) owners.set(Number(row.id), callerId);
  const rest = ids.filter((id) => !owners.has(id));
  if (rest.length > 0) {
    const others = await db
      .select({ id: table.id, ownerId: table.ownerId })
      .from(table)
      .where(inArray(table.id, rest));
    for (const row of others) owners.set(Number(row.id), Number(row.ownerId));
  }
  return owners;
}

/**
 * What is wrong with the contact and bot values of each of `writes` (same order), keyed
 * `data.<slug>`: a value must exist (else a 422 naming every such field at once) and belong to
 * the caller (else a 403); existence is reported first. Looked up in one query per kind, so a
 * batch checks its references per batch, not per item.
 */
async function referenceErrors(
  db: Database,
  caller: Caller,
  fields: readonly StoredField[],
  writes: readonly FieldValues[],
): Promise<(DomainError | undefined)[]> {
  const wanted = { contact: new Set<number>(), bot: new Set<number>() };
  const linked: { write: number; key: string; kind: 'contact' | 'bot'; id: number }[] = [];
  for (const [write, values] of writes.entries()) {
    for (const field of fields) {
      const kind = fieldTypeOf(field).references;
      const id = values.get(field.slug);
      if (!kind || typeof id !== 'number') continue;
      wanted[kind].add(id);
      linked.push({ write, key: `data.${field.slug}`, kind, id });
    }
  }
  if (linked.length === 0) return writes.map(() => undefined);
  const none = new Map<number, number>();
  const [contactOwners, botOwners] = await Promise.all([
    wanted.contact.size > 0 ? ownersOf(db, contacts, caller.accountId, [...wanted.contact]) : none,
    wanted.bot.size > 0 ? ownersOf(db, bots, caller.accountId, [...wanted.bot]) : none,
  ]);
  const owners = { contact: contactOwners, bot: botOwners };
  const missing: ValidationErrors[] = writes.map(() => ({}));
  const foreign = writes.map(() => false);
  for (const { write, key, kind, id } of linked) {
    const owner = owners[kind].get(id);
    if (owner === undefined) missing[write]![key] = [`The selected ${key} is invalid.`];
    else if (owner !== caller.accountId) foreign[write] = true;
  }
  return writes.map((_, write) => {
    if (Object.keys(missing[write]!).length > 0) return domainErrors.validation(missing[write]!);
    return foreign[write] ? domainErrors.foreignReference() : undefined;
  });
}

/** addListItem and updateListItem: the contact and bot values of one write. */
export async function checkReferences(
  db: Database,
  caller: Caller,
  fields: readonly StoredField[],
  values: FieldValues,
): Promise<void> {
  const [error] = await referenceErrors(db, caller, fields, [values]);
  if (error) throw error;
}

/**
 * The batch methods: the contact and bot values of every valid item checked together, each
 * item's failure (keyed `items.<index>.<slug>`) added to `failed`.
 */
export async function refuseReferences(
  db: Database,
  caller: Caller,
  fields: readonly StoredField[],
  valid: readonly { index: number; values: FieldValues }[],
  failed: Map<number, ItemFailure>,
): Promise<void> {
  const errors = await referenceErrors(
    db,
    caller,
    fields,
    valid.map((v) => v.values),
  );
  for (const [i, { index }] of valid.entries()) {
    const error = errors[i];
    if (error) failed.set(index, failedItem(error, 'items', index));
  }
}
