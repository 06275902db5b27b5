import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactsAsJson } from '../../src/contacts/contactJson.js';
import { presentContact } from '../../src/contacts/contactPresenter.js';
import { contactById } from '../../src/contacts/contactRepository.js';
import { queryRows } from '../../src/infra/db/client.js';
import { MESSENGERS } from '../../src/infra/db/schema/contacts.js';
import { awkwardText } from '../helpers/awkwardText.js';
import { seedContact, type SeedContact } from '../helpers/contacts.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * Listings render contacts in SQL (contactJson.ts); single contacts go through presenter.ts.
 * The two must write the same bytes for any contact.
 */
const t = testAppForFile({ redis: false, tenants: ['tenant'] });

async function sqlJson(id: number): Promise<string> {
  const [row] = await queryRows<{ json: string }>(
    t.db,
    contactsAsJson(t.tenant.accountId, sql`SELECT ${id}::bigint AS id`),
  );
  return row!.json;
}

async function presenterJson(id: number): Promise<string> {
  return JSON.stringify(presentContact((await contactById(t.db, t.tenant.accountId, id))!));
}

const awkward = awkwardText();
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

const contactArb: fc.Arbitrary<SeedContact> = fc.record({
  messenger: fc.constantFrom(...MESSENGERS),
  name: awkward,
  phone: optional(fc.stringMatching(/^\d{5,12}$/)),
  email: optional(awkward),
  address: optional(awkward),
  avatar: optional(awkward),
  telegram_username: optional(awkward),
  max_username: optional(awkward),
  tags: fc.uniqueArray(awkward, { maxLength: 4 }),
  created_at: fc.date({
    min: new Date('1970-01-01'),
    max: new Date('2999-12-31'),
    noInvalidDate: true,
  }),
  unsubscribed_at: optional(
    fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
  ),
  variables: fc.uniqueArray(
    fc.record({
      name: fc.oneof(
        awkward,
        awkward.map((s) => `utm_${s}`),
      ),
      value: optional(awkward),
      type: fc.integer({ min: 0, max: 4 }),
    }),
    { maxLength: 4, selector: (v) => v.name },
  ),
});

describe('contacts rendered by Postgres (contactJson.ts)', () => {
  it('writes exactly what JSON.stringify(presentContact(…)) writes, for any contact', async () => {
    await fc.assert(
      fc.asyncProperty(contactArb, async (c) => {
        const id = await seedContact(t.db, t.tenant.botId, c);
        expect(await sqlJson(id)).toBe(await presenterJson(id));
      }),
      { numRuns: 150 },
    );
  });

  it('renders the largest ids, schema ids and deletable flags the same way', async () => {
    const id = await seedContact(t.db, t.tenant.botId, {
      messenger: 'max',
      max_user_id: Number.MAX_SAFE_INTEGER,
      variables: [
        { name: 'utm_source', value: 'ads' },
        { name: 'plan', value: null },
      ],
    });
    await t.db.execute(
      sql`UPDATE contact_variables SET schema_id = 9007199254740991, deletable = false WHERE contact_id = ${id} AND name = 'plan'`,
    );
    const text = await sqlJson(id);
    expect(text).toBe(await presenterJson(id));
    expect(JSON.parse(text)).toMatchObject({
      max_user_id: Number.MAX_SAFE_INTEGER,
      utm: { utm_source: 'ads' },
      variables: [
        { name: 'utm_source' },
        { name: 'plan', schema_id: 9007199254740991, deletable: false },
      ],
    });
  });

  it('renders a stored payload as the same JSON value', async () => {
    const id = await seedContact(t.db, t.tenant.botId, { variables: [{ name: 'x', value: '1' }] });
    await t.db.execute(
      sql`UPDATE contact_variables SET payload = '{"b": [1, 2.5, "é\\n"], "a": null}'::jsonb WHERE contact_id = ${id}`,
    );
    expect(JSON.parse(await sqlJson(id))).toEqual(JSON.parse(await presenterJson(id)));
  });
});
