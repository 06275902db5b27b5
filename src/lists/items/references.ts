import { inArray } from 'drizzle-orm';
import type { Caller } from '../../admission/caller.js';
import type { Database } from '../../infra/db/client.js';
import { bots } from '../../infra/db/schema/bots.js';
import { contacts } from '../../infra/db/schema/contacts.js';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors, type ValidationErrors } from '../../shared/errors.js';
import { fieldTypeOf } from '../field-types/registry.js';
import type { FieldValues } from './validateData.js';

interface Owned {
  id: number;
  owner_id: number;
}

/** Contacts by id with their owner (the owner of their bot, copied onto the contact). */
async function contactOwners(db: Database, ids: number[]): Promise<Owned[]> {
  return db
    .select({ id: contacts.id, owner_id: contacts.ownerId })
    .from(contacts)
    .where(inArray(contacts.id, ids));
}

async function botOwners(db: Database, ids: number[]): Promise<Owned[]> {
  return db.select({ id: bots.id, owner_id: bots.ownerId }).from(bots).where(inArray(bots.id, ids));
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
  const [contacts, ownBots] = await Promise.all([
    wanted.contact.size > 0 ? contactOwners(db, [...wanted.contact]) : [],
    wanted.bot.size > 0 ? botOwners(db, [...wanted.bot]) : [],
  ]);
  const owners = {
    contact: new Map(contacts.map((r) => [Number(r.id), Number(r.owner_id)])),
    bot: new Map(ownBots.map((r) => [Number(r.id), Number(r.owner_id)])),
  };
  for (const { write, key, kind, id } of linked) {
    const owner = owners[kind].get(id);
    if (owner === undefined) problems.missing[write]![key] = [`The selected ${key} is invalid.`];
    else if (owner !== caller.accountId) problems.foreign[write] = true;
  }
  return problems;
}

export const FOREIGN_REFERENCE = 'The contact or bot belongs to another account.';

/**
 * addListItem: a contact or bot value must exist (else 422 under `data.<slug>`) and belong to
 * the caller (else 403). Existence is reported first, for every field at once.
 */
export async function checkReferences(
  db: Database,
  caller: Caller,
  fields: readonly StoredField[],
  values: FieldValues,
): Promise<void> {
  const problems = await referenceProblems(db, caller, fields, [{ prefix: 'data', values }]);
  const missing = problems.missing[0]!;
  if (Object.keys(missing).length > 0) throw domainErrors.validation(missing);
  if (problems.foreign[0]) throw domainErrors.forbidden(FOREIGN_REFERENCE);
}
