import { CONTACT_KEYS, presentKeys, type StoredContact } from './contactShape.js';

export type { StoredContact, StoredVariable } from './contactShape.js';

/** A contact as every method answers with it, in answer order (contactShape.ts). */
export function presentContact(contact: StoredContact): Record<string, unknown> {
  return presentKeys(CONTACT_KEYS, contact, contact.messenger);
}
