import type { Messenger } from '../infra/db/schema/contacts.js';

/** The messengers a contact can be created for through the API (createOrUpdateContact): all but `web`. */
export const API_MESSENGERS = ['telegram', 'max', 'viber', 'vk'] as const;
export type ApiMessenger = (typeof API_MESSENGERS)[number];

/** Where a messenger keeps its contact's ID, and how the ID is written. */
export interface MessengerId {
  /** request parameter names, the first one winning; the rest are aliases (createOrUpdateContact) */
  params: readonly string[];
  /** contacts column, also the key of the contact shape (the contact shape) */
  column: 'telegram_id' | 'max_user_id' | 'vk_user_id' | 'viber_id';
  /** integer IDs are positive integers; viber IDs are text up to 255 characters */
  kind: 'integer' | 'text';
  /** username column accepted for this messenger, if it has one */
  username?: 'telegram_username' | 'max_username';
}

/** One entry per messenger with an ID; `web` contacts have none and are never matched. */
export const MESSENGER_IDS: Record<ApiMessenger, MessengerId> = {
  telegram: {
    params: ['telegram_id'],
    column: 'telegram_id',
    kind: 'integer',
    username: 'telegram_username',
  },
  max: {
    params: ['max_id', 'max_user_id'],
    column: 'max_user_id',
    kind: 'integer',
    username: 'max_username',
  },
  vk: { params: ['vk_id', 'vk_user_id'], column: 'vk_user_id', kind: 'integer' },
  viber: { params: ['viber_id'], column: 'viber_id', kind: 'text' },
};

export function messengerId(messenger: Messenger): MessengerId | undefined {
  return messenger === 'web' ? undefined : MESSENGER_IDS[messenger];
}

/** The first of `params` present (not undefined, null or empty text) in `input`. */
export function pickIdParam(
  id: MessengerId,
  input: Record<string, unknown>,
): { param: string; value: unknown } | undefined {
  for (const param of id.params) {
    const value = input[param];
    if (value !== undefined && value !== null && value !== '') return { param, value };
  }
  return undefined;
}
