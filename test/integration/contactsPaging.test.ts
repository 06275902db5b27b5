import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hintKey } from '../../src/contacts/pagingHints.js';
import { readScopeState } from '../../src/contacts/contactRepository.js';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { seedContact, seedContacts } from '../helpers/contacts.js';
import { createBot, makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

/** 2024-01-01T00:00:00Z */
const T0 = 1_704_067_200;

interface Listing {
  bot_id?: number;
  date_from?: number;
  date_to?: number;
}

/** A small deterministic PRNG, so a failure replays the same way. */
function prng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

for (const redis of [true, false]) {
  describe(`deep paging equals plain OFFSET (hints in ${redis ? 'Redis' : 'process memory'})`, () => {
    let t: TestApp;
    let owner: Tenant;
    let botB: number;
    let nextTelegram = 50_000;

    beforeAll(async () => {
      t = await startTestApp({ redis, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
      owner = await makeTenant(t.db);
      botB = (await createBot(t.db, owner.projectUuid, 'B')).id;
      for (let i = 0; i < 120; i++) {
        await seedContact(t.db, i % 3 === 0 ? botB : owner.botId, {
          preview: i % 11 === 0,
          created_at: new Date((T0 + i) * 1000),
        });
      }
    });
    afterAll(() => t.close());

    /** The reference: the same listing as one plain OFFSET query and one count. */
    async function reference(listing: Listing, offset: number, limit: number) {
      const where: SQL[] = [
        listing.bot_id === undefined
          ? sql`owner_id = ${owner.accountId}`
          : sql`bot_id = ${listing.bot_id}`,
        sql`NOT preview`,
      ];
      if (listing.date_from !== undefined) {
        where.push(sql`created_at >= to_timestamp(${listing.date_from}::float8)`);
      }
      if (listing.date_to !== undefined) {
        where.push(sql`created_at < to_timestamp(${listing.date_to + 1}::float8)`);
      }
      const cond = sql.join(where, sql` AND `);
      const rows = await queryRows<{ id: string | number }>(
        t.db,
        sql`SELECT id FROM contacts WHERE ${cond} ORDER BY id OFFSET ${offset} LIMIT ${limit}`,
      );
      const [total] = await queryRows<{ n: string | number }>(
        t.db,
        sql`SELECT count(*) AS n FROM contacts WHERE ${cond}`,
      );
      return { ids: rows.map((r) => Number(r.id)), total: Number(total?.n) };
    }

    /** One change of the kind that shifts offsets, at a random place, by a random path. */
    async function mutate(random: () => number, listing: Listing) {
      const botId = listing.bot_id ?? (random() < 0.5 ? owner.botId : botB);
      const pick = async () => {
        const rows = await queryRows<{ id: string | number }>(
          t.db,
          sql`SELECT id FROM contacts WHERE bot_id = ${botId} ORDER BY random() LIMIT 1`,
        );
        return rows[0] ? Number(rows[0].id) : undefined;
      };
      const kind = Math.floor(random() * 5);
      if (kind === 0) {
        const res = await call(
          t.app,
          'createOrUpdateContact',
          { bot_id: botId, messenger: 'telegram', telegram_id: nextTelegram++, name: 'New' },
          { key: owner.apiKey },
        );
        expect(res.status).toBe(201);
      } else if (kind === 1) {
        // an old creation time: lands inside earlier date windows
        await seedContact(t.db, botId, { created_at: new Date((T0 + random() * 120) * 1000) });
      } else if (kind === 2) {
        const id = await pick();
        if (id) await t.db.execute(sql`DELETE FROM contacts WHERE id = ${id}`);
      } else if (kind === 3) {
        const id = await pick();
        if (id) await t.db.execute(sql`UPDATE contacts SET preview = NOT preview WHERE id = ${id}`);
      } else {
        const id = await pick();
        const at = new Date((T0 + random() * 120) * 1000).toISOString();
        if (id)
          await t.db.execute(
            sql`UPDATE contacts SET created_at = ${at}::timestamptz WHERE id = ${id}`,
          );
      }
    }

    const listings: [string, () => Listing][] = [
      ['one bot', () => ({ bot_id: owner.botId })],
      ['all own bots', () => ({})],
      ['a date window', () => ({ date_from: T0 + 10, date_to: T0 + 100 })],
      ['one bot in a date window', () => ({ bot_id: botB, date_to: T0 + 80 })],
    ];

    it.each(listings)(
      'exports %s in offset mode page by page, contacts added and removed between pages',
      async (_, makeListing) => {
        const listing = makeListing();
        const random = prng(listing.bot_id ?? 7);
        const limit = 7;
        for (let offset = 0, page = 0; page < 30; offset += limit, page++) {
          if (page % 3 === 2) await mutate(random, listing);
          const res = await call(
            t.app,
            'getContacts',
            { ...listing, offset, limit },
            { key: owner.apiKey },
          );
          const expected = await reference(listing, offset, limit);
          expect(res.body.data.map((c: { id: number }) => c.id)).toEqual(expected.ids);
          expect(res.body.meta.total).toBe(expected.total);
        }
      },
    );

    it.each(listings)(
      'pages %s in page mode, jumping back and forth, with changes in between',
      async (_, makeListing) => {
        const listing = makeListing();
        const random = prng(99);
        const count = 5;
        for (const page of [1, 2, 3, 5, 4, 4, 9, 2, 1, 6, 7, 8, 30]) {
          if (random() < 0.4) await mutate(random, listing);
          const res = await call(
            t.app,
            'getContacts',
            { ...listing, page, count },
            { key: owner.apiKey },
          );
          const expected = await reference(listing, (page - 1) * count, count);
          expect(res.body.data.map((c: { id: number }) => c.id)).toEqual(expected.ids);
          expect(res.body.meta.total).toBe(expected.total);
          const counted = await call(
            t.app,
            'getNumberOfContacts',
            { ...listing },
            { key: owner.apiKey },
          );
          expect(counted.body.count).toBe(expected.total);
        }
      },
    );

    it('remembers where a page ended, so the next offset is a keyset seek', async () => {
      const listing = { bot_id: owner.botId };
      const first = await call(
        t.app,
        'getContacts',
        { ...listing, offset: 0, limit: 4 },
        { key: owner.apiKey },
      );
      const state = await readScopeState(t.db, owner.accountId, owner.botId);
      const key = hintKey(owner.accountId, { botId: owner.botId }, state!.version);
      const remembered = await t.deps.contactPagingHints.nearest(key, 4);
      expect(remembered).toEqual({ offset: 4, lastId: first.body.data[3].id });
    });

    it('forgets remembered positions when a contact is deleted by any path (the version moves)', async () => {
      const before = await readScopeState(t.db, owner.accountId, owner.botId);
      const [victim] = await seedContacts(t.db, owner.botId, 1);
      const afterInsert = await readScopeState(t.db, owner.accountId, owner.botId);
      await t.db.execute(sql`DELETE FROM contacts WHERE id = ${victim!}`);
      const afterDelete = await readScopeState(t.db, owner.accountId, owner.botId);
      expect(afterInsert!.version).toBeGreaterThan(before!.version);
      expect(afterDelete!.version).toBeGreaterThan(afterInsert!.version);
      expect(afterDelete!.liveCount).toBe(before!.liveCount);
    });

    it('keeps the version when a change cannot shift offsets (name, tags)', async () => {
      const [id] = await seedContacts(t.db, owner.botId, 1);
      const before = await readScopeState(t.db, owner.accountId, owner.botId);
      await t.db.execute(sql`UPDATE contacts SET name = 'Renamed', tags = '{a}' WHERE id = ${id!}`);
      expect(await readScopeState(t.db, owner.accountId, owner.botId)).toEqual(before);
    });
  });
}
