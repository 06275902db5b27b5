import { describe, expect, it } from 'vitest';
import { presentContact, type StoredContact } from '../../src/contacts/contactPresenter.js';

const base: StoredContact = {
  id: 1,
  bot_id: 2,
  messenger: 'telegram',
  telegram_id: '9007199254740993',
  max_user_id: null,
  vk_user_id: null,
  viber_id: null,
  telegram_username: 'ada',
  max_username: null,
  phone: null,
  email: null,
  name: 'Ada',
  address: null,
  avatar: null,
  tags: [],
  created_at: '2024-01-01T00:00:00.000Z',
  unsubscribed_at: null,
  variables: [],
};

const variable = (name: string, value: string | null) => ({
  id: 1,
  name,
  value,
  type: 0,
  schema_id: null,
  deletable: true,
  payload: null,
});

describe('contact presenter (the contact shape)', () => {
  it('keeps a Telegram ID beyond 2^53 exact, as text', () => {
    expect(presentContact(base).telegram_id).toBe('9007199254740993');
  });

  it('renders utm as [] without utm_* variables and as an object with them', () => {
    expect(presentContact(base).utm).toEqual([]);
    expect(
      JSON.stringify(presentContact({ ...base, variables: [variable('city', 'x')] }).utm),
    ).toBe('[]');
    const withUtm = presentContact({
      ...base,
      variables: [
        variable('utm_source', 'ads'),
        variable('utmost', 'no'),
        variable('utm_term', null),
      ],
    });
    expect(withUtm.utm).toEqual({ utm_source: 'ads', utm_term: null });
  });

  it('gives vk_user_id null on a non-vk contact even if the column holds a value', () => {
    expect(presentContact({ ...base, vk_user_id: 5 }).vk_user_id).toBeNull();
    expect(
      presentContact({ ...base, messenger: 'vk', telegram_id: null, vk_user_id: 5 }).vk_user_id,
    ).toBe(5);
  });

  it('shows no other messenger’s keys', () => {
    const vk = presentContact({ ...base, messenger: 'vk', vk_user_id: 5 });
    expect(vk).not.toHaveProperty('telegram_id');
    expect(vk).not.toHaveProperty('telegram_username');
    expect(vk).not.toHaveProperty('max_user_id');
    expect(vk).not.toHaveProperty('viber_id');
  });
});
