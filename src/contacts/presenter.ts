import type { Messenger } from '../infra/db/schema/contacts.js';

/** A contact as the repository reads it (snake_case, as selected in `contactColumns`). */
export interface StoredContact {
  id: number;
  bot_id: number;
  messenger: Messenger;
  /** read as text: Telegram IDs are rendered as strings (spec 2.4) */
  telegram_id: string | null;
  max_user_id: number | null;
  vk_user_id: number | null;
  viber_id: string | null;
  telegram_username: string | null;
  max_username: string | null;
  phone: string | null;
  email: string | null;
  name: string;
  address: string | null;
  avatar: string | null;
  tags: string[];
  /** ISO 8601 UTC, formatted by the query */
  created_at: string;
  unsubscribed_at: string | null;
  variables: StoredVariable[];
}

export interface StoredVariable {
  id: number;
  name: string;
  value: string | null;
  type: number;
  schema_id: number | null;
  deletable: boolean;
  payload: unknown;
}

type Field = readonly [key: string, value: (c: StoredContact) => unknown, only?: Messenger];

/**
 * The contact shape of spec 2.4, in the spec's key order, as data: a key with a messenger
 * is shown only on that messenger's contacts; `vk_user_id` is on every contact.
 */
const SHAPE: readonly Field[] = [
  ['id', (c) => c.id],
  ['bot_id', (c) => c.bot_id],
  ['phone', (c) => c.phone],
  ['email', (c) => c.email],
  ['name', (c) => c.name],
  ['address', (c) => c.address],
  ['messenger', (c) => c.messenger],
  ['utm', (c) => utmOf(c.variables)],
  ['avatar', (c) => c.avatar],
  ['telegram_id', (c) => c.telegram_id, 'telegram'],
  ['telegram_username', (c) => c.telegram_username, 'telegram'],
  ['max_user_id', (c) => c.max_user_id, 'max'],
  ['max_username', (c) => c.max_username, 'max'],
  ['vk_user_id', (c) => (c.messenger === 'vk' ? c.vk_user_id : null)],
  ['viber_id', (c) => c.viber_id, 'viber'],
  ['created_at', (c) => c.created_at],
  ['unsubscribed_at', (c) => c.unsubscribed_at],
  ['tags', (c) => c.tags],
  ['variables', (c) => c.variables.map(presentVariable)],
];

export function presentContact(contact: StoredContact): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value, only] of SHAPE) {
    if (only === undefined || only === contact.messenger) out[key] = value(contact);
  }
  return out;
}

function presentVariable(v: StoredVariable) {
  return {
    id: v.id,
    name: v.name,
    value: v.value,
    type: v.type,
    schema_id: v.schema_id,
    deletable: v.deletable,
    payload: v.payload,
  };
}

/** Spec 2.4: the `utm_*` variables as name → value, and `[]` (not `{}`) when there are none. */
function utmOf(variables: StoredVariable[]): Record<string, string | null> | [] {
  const utm = variables.filter((v) => v.name.startsWith('utm_'));
  if (utm.length === 0) return [];
  return Object.fromEntries(utm.map((v) => [v.name, v.value]));
}
