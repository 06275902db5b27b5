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
import type { ItemFailure } from '../../shared/itemOutcomes.js';
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

/** One write's values and the prefix of its error keys (`data`, `items.3`). */
export interface ReferencingValues {
  prefix: string;
  values: FieldValues;
}

/** What is wrong with each write's contact and bot values: unknown ids, other accounts' ids. */
export interface ReferenceProblems {
  /** per write (same order): `<prefix>.<slug>` → message, for ids that do not exist */
  missing: ValidationErrors[];
  /** per write: whether a value belongs to another account */
  foreign: boolean[];
}

/**
 * The contact and bot values of any number of writes, looked up in one query per kind: a
 * batch checks its references per batch, not per item.
 */
export async function referenceProblems(
  db: Database,
  caller: Caller,
  fields: readonly StoredField[],
  writes: readonly ReferencingValues[],
): Promise<ReferenceProblems> {
  const wanted = { contact: new Set<number>(), bot: new Set<number>() };
  const linked: { write: number; key: string; kind: 'contact' | 'bot'; id: number }[] = [];
  for (const [write, { prefix, values }] of writes.entries()) {
    for (const field of fields) {
      const kind = fieldTypeOf(field).references;
      const id = values.get(field.slug);
      if (!kind || typeof id !== 'number') continue;
      wanted[kind].add(id);
      linked.push({ write, key: `${prefix}.${field.slug}`, kind, id });
    }
  }
  const problems: ReferenceProblems = {
    missing: writes.map(() => ({})),
    foreign: writes.map(() => false),
  };
  if (linked.length === 0) return problems;
  const none = new Map<number, number>();
  const [contactOwners, botOwners] = await Promise.all([
    wanted.contact.size > 0 ? ownersOf(db, contacts, caller.accountId, [...wanted.contact]) : none,
    wanted.bot.size > 0 ? ownersOf(db, bots, caller.accountId, [...wanted.bot]) : none,
  ]);
  const owners = { contact: contactOwners, bot: botOwners };
  for (const { write, key, kind, id } of linked) {
    const owner = owners[kind].get(id);
    if (owner === undefined) problems.missing[write]![key] = [`The selected ${key} is invalid.`];
    else if (owner !== caller.accountId) problems.foreign[write] = true;
  }
  return problems;
}

/**
 * The error of write `i` of referenceProblems' answer, if any: a contact or bot value must
 * exist (else a 422 under `<prefix>.<slug>`, for every such field at once) and belong to the
 * caller (else a 403). Existence is reported first.
 */
function referenceError(problems: ReferenceProblems, i: number): DomainError | undefined {
  const missing = problems.missing[i]!;
  if (Object.keys(missing).length > 0) return domainErrors.validation(missing);
  if (problems.foreign[i]) return domainErrors.foreignReference();
  return undefined;
}

/** addListItem and updateListItem: the contact and bot values of one write (`data.<slug>`). */
export async function checkReferences(
  db: Database,
  caller: Caller,
  fields: readonly StoredField[],
  values: FieldValues,
): Promise<void> {
  const problems = await referenceProblems(db, caller, fields, [{ prefix: 'data', values }]);
  const error = referenceError(problems, 0);
  if (error) throw error;
}

/**
 * The failures in referenceProblems' answer for a batch's valid items (`valid[i]` was checked
 * as its i-th write), added to `failed`.
 */
export function addReferenceFailures(
  problems: ReferenceProblems,
  valid: readonly { index: number }[],
  failed: Map<number, ItemFailure>,
): void {
  for (const [i, { index }] of valid.entries()) {
    const error = referenceError(problems, i);
    if (error) failed.set(index, { index, error });
  }
}
