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
  const wanted = { contact: new Set<number>(), bot: new Set<number>() };
  const linked: { key: string; kind: 'contact' | 'bot'; id: number }[] = [];
  for (const field of fields) {
    const kind = fieldTypeOf(field).references;
    const id = values.get(field.slug);
    if (!kind || typeof id !== 'number') continue;
    wanted[kind].add(id);
    linked.push({ key: `data.${field.slug}`, kind, id });
  }
  if (linked.length === 0) return;
  const [contacts, ownBots] = await Promise.all([
    wanted.contact.size > 0 ? contactOwners(db, [...wanted.contact]) : [],
    wanted.bot.size > 0 ? botOwners(db, [...wanted.bot]) : [],
  ]);
  const owners = {
    contact: new Map(contacts.map((r) => [Number(r.id), Number(r.owner_id)])),
    bot: new Map(ownBots.map((r) => [Number(r.id), Number(r.owner_id)])),
  };
  const missing: ValidationErrors = {};
  let foreign = false;
  for (const { key, kind, id } of linked) {
    const owner = owners[kind].get(id);
    if (owner === undefined) missing[key] = [`The selected ${key} is invalid.`];
    else if (owner !== caller.accountId) foreign = true;
  }
  if (Object.keys(missing).length > 0) throw domainErrors.validation(missing);
  if (foreign) throw domainErrors.forbidden('The contact or bot belongs to another account.');
}
