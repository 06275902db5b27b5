import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFieldCipher, DecryptionError } from '../../src/lists/encryption/cipher.js';
import { FIELD_TYPES } from '../../src/lists/field-types/fieldTypeRegistry.js';
import { call } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

/**
 * AES-256-GCM round-trips every value type and every Unicode string; a
 * flipped bit, a truncated value or a wrong key is rejected, never returned as garbage;
 * rotating ENCRYPTION_KEY with the old key kept for reading loses nothing.
 * (test/unit/cipher.test.ts and test/integration/listItemsEncryption.test.ts hold the
 * example-based cases; these are exhaustive or generated.)
 */
const key = () => randomBytes(32).toString('base64');
const SEED = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));

describe(`the field cipher (seed ${SEED})`, () => {
  it('round-trips every Unicode string: any code point, astral, combining, empty, long', () => {
    const cipher = createFieldCipher(key());
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ unit: 'grapheme', maxLength: 50 }),
          fc.string({ unit: 'binary', minLength: 5000, maxLength: 6000 }),
        ),
        (text) => cipher.decrypt(cipher.encrypt(text)) === text,
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('rejects every single flipped bit of IV, tag and ciphertext', () => {
    const cipher = createFieldCipher(key());
    const sealed = cipher.encrypt('{"v":"secret 😀"}');
    const [prefix, raw] = [
      sealed.slice(0, sealed.lastIndexOf(':') + 1),
      sealed.slice(sealed.lastIndexOf(':') + 1),
    ];
    const bytes = Buffer.from(raw, 'base64');
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const flipped = Buffer.from(bytes);
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      expect(() => cipher.decrypt(prefix + flipped.toString('base64')), `bit ${bit}`).toThrow(
        DecryptionError,
      );
    }
  });

  it('rejects every truncation, and the value under a wrong key or a wrong key id', () => {
    const cipher = createFieldCipher(key());
    const sealed = cipher.encrypt('"secret"');
    for (let n = 0; n < sealed.length; n++) {
      expect(() => cipher.decrypt(sealed.slice(0, n)), `first ${n} characters`).toThrow();
    }
    const stranger = createFieldCipher(key());
    expect(() => stranger.decrypt(sealed)).toThrow(DecryptionError);
    // the stranger's key id on our ciphertext: authenticated data differs, so it fails
    const theirs = stranger.encrypt('x');
    const relabelled =
      theirs.slice(0, theirs.lastIndexOf(':') + 1) + sealed.slice(sealed.lastIndexOf(':') + 1);
    expect(() => stranger.decrypt(relabelled)).toThrow(DecryptionError);
  });

  it('keeps every value readable through two rotations while the old keys are listed', () => {
    const [k1, k2, k3] = [key(), key(), key()];
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 20 }),
        (texts) => {
          const sealed1 = texts.map((t) => createFieldCipher(k1).encrypt(t));
          const second = createFieldCipher(k2, [k1]);
          const sealed2 = texts.map((t) => second.encrypt(t));
          const third = createFieldCipher(k3, [k2, k1]);
          for (const [i, t] of texts.entries()) {
            expect(third.decrypt(sealed1[i]!)).toBe(t);
            expect(third.decrypt(sealed2[i]!)).toBe(t);
          }
          // dropping a key too early is loud, never garbage
          expect(() => createFieldCipher(k3, [k2]).decrypt(sealed1[0]!)).toThrow(DecryptionError);
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
  });
});

describe('every field type, encrypted, through the API (is_encryptable)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let contactId: number;
  let plain: string;
  let sealed: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    tenant = await makeTenant(t.db);
    contactId = await seedContact(t.db, tenant.botId);
    const fields = (encrypted: boolean) =>
      FIELD_TYPES.map((type) => ({
        name: type,
        slug: type,
        type,
        is_required: false,
        is_encryptable: encrypted,
      }));
    const make = async (encrypted: boolean) =>
      (
        await call(
          t.app,
          'createListSchema',
          {
            name: encrypted ? 'Sealed' : 'Plain',
            project_uuid: tenant.projectUuid,
            fields: fields(encrypted),
          },
          { key: tenant.apiKey },
        )
      ).body.data.id as string;
    plain = await make(false);
    sealed = await make(true);
  });
  afterAll(() => t?.close());

  const values = () =>
    fc.record(
      {
        string: fc
          .string({ unit: 'binary', maxLength: 100 })
          .filter((s) => s.trim() !== '' && !s.includes('\u0000')),
        number: fc.oneof(
          fc.integer(),
          fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }),
        ),
        bool: fc.boolean(),
        date: fc
          .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10)),
        datetime: fc
          .date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString()),
        money: fc.integer({ min: -1e9, max: 1e9 }).map((c) => (c / 100).toFixed(2)),
        file: fc.webUrl().map((url) => ({ url, name: 'f.pdf' })),
        image: fc.webUrl(),
        contact: fc.constant(null).map(() => contactId),
        bot: fc.constant(null).map(() => tenant.botId),
      },
      { requiredKeys: [] },
    );

  it('returns the same record from an encrypted list as from a plain one, for generated values', async () => {
    await fc.assert(
      fc.asyncProperty(values(), async (data) => {
        const a = await call(
          t.app,
          'addListItem',
          { schema_id: plain, data },
          { key: tenant.apiKey },
        );
        const b = await call(
          t.app,
          'addListItem',
          { schema_id: sealed, data },
          { key: tenant.apiKey },
        );
        expect(a.status, JSON.stringify(a.body)).toBe(201);
        expect(b.status, JSON.stringify(b.body)).toBe(201);
        const strip = ({
          id: _i,
          created_at: _c,
          updated_at: _u,
          ...rest
        }: Record<string, unknown>) => rest;
        expect(strip(b.body.data)).toEqual(strip(a.body.data));
        const read = await call(
          t.app,
          'getListItems',
          { schema_id: sealed, filters: {}, limit: 1, order_by: 'created_at,desc' },
          { key: tenant.apiKey },
        );
        expect(strip(read.body.data[0])).toEqual(strip(a.body.data));
      }),
      { seed: SEED, numRuns: 60 },
    );
    // and what Postgres holds for the encrypted list is ciphertext only
    const [row] = (
      (await t.db.execute(
        sql`SELECT data::text AS data FROM list_items WHERE schema_id = ${sealed} LIMIT 1`,
      )) as unknown as {
        rows: { data: string }[];
      }
    ).rows;
    for (const value of Object.values(JSON.parse(row!.data) as Record<string, string>)) {
      expect(value).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+$/);
    }
  }, 120_000);

  it('answers 500 (logged, with the request id) for a stored value that fails authentication, never garbage', async () => {
    const added = await call(
      t.app,
      'addListItem',
      { schema_id: sealed, data: { string: 'intact secret' } },
      { key: tenant.apiKey },
    );
    const id = added.body.data.id as string;
    // flip one ciphertext byte in the stored envelope (worked out here and written as a value:
    // Citus refuses an UPDATE that calls regexp_replace on a column)
    const [stored] = (
      (await t.db.execute(
        sql`SELECT data->>'string' AS envelope FROM list_items
            WHERE owner_id = ${tenant.accountId} AND id = ${id}`,
      )) as unknown as { rows: { envelope: string }[] }
    ).rows;
    const envelope = stored!.envelope;
    const at = envelope.lastIndexOf(':') + 1;
    const flipped =
      envelope.slice(0, at) + (envelope[at] === 'A' ? 'B' : 'A') + envelope.slice(at + 1);
    await t.db.execute(sql`
      UPDATE list_items SET data = jsonb_set(data, '{string}', to_jsonb(${flipped}::text))
      WHERE owner_id = ${tenant.accountId} AND id = ${id}`);
    const res = await call(
      t.app,
      'getListItems',
      { schema_id: sealed, limit: 1000 },
      { key: tenant.apiKey },
    );
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'server_error', request_id: expect.any(String) });
    expect(
      t.logs.some(
        (l) => l.includes(res.body.request_id) && /DecryptionError|authentication/.test(l),
      ),
    ).toBe(true);
  });
});
