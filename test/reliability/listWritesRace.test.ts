import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call, type CallResult } from '../helpers/call.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * Every kind of record write at once on one list — batches and single records, adds,
 * updates and deletes, all-or-nothing and not — while fields are added and deleted under
 * them (slots assigned, freed and reused). Whatever interleaving Postgres picks, afterwards:
 * no answer was a 500, the list's counter is its number of records, every record's slot
 * columns hold what its `data` holds, and the change feed has one event per record created,
 * changed and deleted as the answers said; reads during the storm leave no total behind that
 * differs from a count after it. The calls alternate between two instances on one database.
 */
/** a second instance on the same database: each remembers answers of its own */
let t2: TestApp;

const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '1000000' }, tenants: ['owner'] });
beforeAll(async () => {
  t2 = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' }, database: t.database });
});
afterAll(async () => {
  await t2?.close();
});

let calls = 0;
/** Calls the two instances in turn. */
const api = (method: string, params: Record<string, unknown>) =>
  call(calls++ % 2 === 0 ? t.app : t2.app, method, params, { key: t.owner.apiKey });

/**
 * Calls per worker, not a time window: on a loaded machine a window holds fewer calls, and
 * the activity checks below (enough creates, updates, deletes) would fail for want of them.
 */
const CALLS_PER_WORKER = 100;
const WORKERS = 8;

/** A deterministic stream of choices, so a failure can be run again as it was. */
function choices(seed: number) {
  let s = seed >>> 0;
  // mulberry32: every bit varies, so small moduli do not cycle as an LCG's low bits do
  return (n: number) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) % n;
  };
}

/** A filter on `title` (even k) or `n` (odd k), as getListItems takes it. */
const filterOf = (k: number) => ({
  filters: k % 2 === 0 ? { title: `t${k % 50}` } : { n: `<,${k * 10}` },
});

describe('record writes of every kind at once, with fields changing', () => {
  it('keeps the counter, the slots and the change feed exact, and never answers 500', async () => {
    const created = await api('createListSchema', {
      project_uuid: t.owner.projectUuid,
      name: 'race',
      fields: [
        { name: 'Title', slug: 'title', type: 'string' },
        { name: 'N', slug: 'n', type: 'number' },
      ],
    });
    expect(created.status).toBe(201);
    const listId = String(created.body.data.id);

    const known: string[] = [];
    const tally = { created: 0, updated: 0, deleted: 0 };
    const statuses = new Map<number, number>();
    /** the messages of 503 answers: only "retry, the list changed" may be among them */
    const unavailable = new Set<string>();
    const seen = (res: CallResult) => {
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 503) unavailable.add(String(res.body.message));
    };
    const item = (pick: (n: number) => number) => ({ title: `t${pick(50)}`, n: pick(1000) });
    /** ids deleted: counted, and no longer picked (a few may still be, by writes in flight) */
    const gone = (ids: string[]) => {
      tally.deleted += ids.length;
      for (const id of ids) {
        const at = known.indexOf(id);
        if (at >= 0) known.splice(at, 1);
      }
    };
    const someIds = (pick: (n: number) => number, count: number) =>
      [...new Set(Array.from({ length: count }, () => known[pick(known.length)]!))].filter(Boolean);

    const operations: ((pick: (n: number) => number) => Promise<void>)[] = [
      async (pick) => {
        const atomic = pick(2) === 0;
        const res = await api('addListItems', {
          schema_id: listId,
          items: Array.from({ length: 1 + pick(20) }, () => item(pick)),
          atomic,
        });
        seen(res);
        if (res.status !== 200 && res.status !== 201) return;
        for (const entry of res.body.data) {
          const record = atomic ? entry : entry.status === 201 ? entry.data : undefined;
          if (record) {
            known.push(String(record.id));
            tally.created++;
          }
        }
      },
      async (pick) => {
        const res = await api('addListItem', { schema_id: listId, data: item(pick) });
        seen(res);
        if (res.status === 201) {
          known.push(String(res.body.data.id));
          tally.created++;
        }
      },
      async (pick) => {
        const ids = someIds(pick, 1 + pick(15));
        if (ids.length === 0) return;
        const res = await api('updateListItems', {
          schema_id: listId,
          items: ids.map((id) => ({ item_id: id, data: item(pick) })),
          atomic: false,
        });
        seen(res);
        if (res.status === 200)
          tally.updated += res.body.data.filter((o: { status: number }) => o.status === 200).length;
      },
      async (pick) => {
        const ids = someIds(pick, 1 + pick(5));
        if (ids.length === 0) return;
        const res = await api('updateListItems', {
          schema_id: listId,
          items: ids.map((id) => ({ item_id: id, data: item(pick) })),
        });
        seen(res);
        if (res.status === 200) tally.updated += ids.length;
      },
      async (pick) => {
        const [id] = someIds(pick, 1);
        if (!id) return;
        const res = await api('updateListItem', { item_id: id, data: item(pick) });
        seen(res);
        if (res.status === 200) tally.updated++;
      },
      async (pick) => {
        const ids = someIds(pick, 1 + pick(4));
        if (ids.length === 0) return;
        const atomic = pick(2) === 0;
        const res = await api('deleteListItems', { schema_id: listId, item_ids: ids, atomic });
        seen(res);
        if (atomic && res.status === 204) gone(ids);
        if (!atomic && res.status === 200)
          gone(ids.filter((_, i) => res.body.data[i].status === 204));
      },
      async (pick) => {
        const [id] = someIds(pick, 1);
        if (!id) return;
        const res = await api('deleteListItem', { item_id: id });
        seen(res);
        if (res.status === 204 || res.status === 200) gone([id]);
      },
      async (pick) => {
        // reads fill the read cache while versions move under them
        const res = await api('getListItems', {
          schema_id: listId,
          ...filterOf(pick(100)),
          limit: 5,
        });
        seen(res);
      },
      async (pick) => {
        // a field added or deleted: every write in flight meets fields it did not validate against
        const slug = `extra${pick(3)}`;
        const res =
          pick(2) === 0
            ? await api('addListSchemaField', {
                schema_id: listId,
                field: {
                  name: slug,
                  slug,
                  type: pick(2) === 0 ? 'string' : 'number',
                  is_required: false,
                },
              })
            : await api('deleteListSchemaField', { schema_id: listId, slug });
        seen(res);
      },
    ];

    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        const pick = choices(w + 1);
        for (let n = 0; n < CALLS_PER_WORKER; n++) await operations[pick(operations.length)]!(pick);
      }),
    );

    const answered = Object.fromEntries(statuses);
    // every answer is one the methods document: no 500, and a 503 only for fields that kept
    // changing under a write (a deadlock or lock wait would be a 503 with another message)
    expect(
      Object.keys(answered)
        .map(Number)
        .filter((s) => s >= 500 && s !== 503),
    ).toEqual([]);
    expect([...unavailable].filter((m) => !m.startsWith('The list changed'))).toEqual([]);
    expect(tally.created).toBeGreaterThan(100);
    expect(tally.updated).toBeGreaterThan(50);
    expect(tally.deleted).toBeGreaterThan(20);

    const [list] = await queryRows<{ item_count: number; records: number; fields: unknown }>(
      t.db,
      sql`select item_count::int, fields,
                 (select count(*)::int from list_items where schema_id = ${listId}) as records
          from list_schemas where id = ${listId}`,
    );
    expect(list!.item_count).toBe(list!.records);
    expect(list!.records).toBe(tally.created - tally.deleted);

    // each live slotted field's value lives in its slot alone: `data` holds no copy of it
    // (thin documents, src/lists/items/itemSlots.ts), whatever moved under the writes
    const fields = list!.fields as { slug: string; slot?: string; type: string }[];
    const slotOf = (slug: string) => sql.identifier(fields.find((f) => f.slug === slug)!.slot!);
    for (const f of fields.filter((x) => x.slot)) {
      const [bad] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from list_items
            where schema_id = ${listId} and data ? ${f.slug}::text`,
      );
      expect({ field: f.slug, copies: bad!.n }).toEqual({ field: f.slug, copies: 0 });
    }

    // every total answered now is the count of now, whatever was remembered during the storm
    for (let k = 0; k < 100; k += 7) {
      // on both instances: what either remembered during the storm
      const [res, other] = await Promise.all([
        call(
          t.app,
          'getListItems',
          { schema_id: listId, ...filterOf(k), limit: 1 },
          { key: t.owner.apiKey },
        ),
        call(
          t2.app,
          'getListItems',
          { schema_id: listId, ...filterOf(k), limit: 1 },
          { key: t.owner.apiKey },
        ),
      ]);
      expect(other.body.meta.total).toBe(res.body.meta.total);
      // the reference count reads the slots, where the values live (thin documents)
      const condition =
        k % 2 === 0 ? sql`${slotOf('title')} = ${`t${k % 50}`}` : sql`${slotOf('n')} < ${k * 10}`;
      const [counted] = await queryRows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from list_items where schema_id = ${listId} and ${condition}`,
      );
      expect({ k, total: res.body.meta.total }).toEqual({ k, total: counted!.n });
    }

    const events = await queryRows<{ type: string; n: number }>(
      t.db,
      sql`select type, count(*)::int as n from changes
          where schema_id = ${listId} and type like 'list_item.%' group by type`,
    );
    const byType = Object.fromEntries(events.map((e) => [e.type, e.n]));
    expect(byType).toEqual({
      'list_item.created': tally.created,
      'list_item.deleted': tally.deleted,
      ...(tally.updated > 0 ? { 'list_item.updated': expect.any(Number) } : {}),
    });
    // an update that changes nothing has no event, so at most one per answered update
    expect(byType['list_item.updated']).toBeLessThanOrEqual(tally.updated);
  }, 120_000);
});

describe('a list deleted while its records are written', () => {
  it('answers every call sent after the delete 404, and none at any time 500', async () => {
    const created = await api('createListSchema', {
      project_uuid: t.owner.projectUuid,
      name: 'deleted under writes',
      fields: [{ name: 'Title', slug: 'title', type: 'string' }],
    });
    const listId = String(created.body.data.id);
    const seeded = await api('addListItems', {
      schema_id: listId,
      items: Array.from({ length: 50 }, (_, i) => ({ title: `s${i}` })),
    });
    const ids: string[] = seeded.body.data.map((r: { id: string }) => String(r.id));

    let deletedAt = Infinity;
    let sent = 0;
    const late: number[] = [];
    const statuses = new Set<number>();
    /** sends one call; whether it was sent after the list's delete had been answered */
    const write = async (pick: (n: number) => number): Promise<boolean> => {
      sent++;
      const sentAt = Date.now();
      const id = ids[pick(ids.length)]!;
      const res = await [
        () => api('addListItems', { schema_id: listId, items: [{ title: 'a' }, { title: 'b' }] }),
        () => api('addListItem', { schema_id: listId, data: { title: 'c' } }),
        () =>
          api('updateListItems', {
            schema_id: listId,
            items: [{ item_id: id, data: { title: 'u' } }],
          }),
        () => api('updateListItem', { item_id: id, data: { title: 'v' } }),
        () => api('deleteListItems', { schema_id: listId, item_ids: [id], atomic: false }),
        () => api('getListItems', { schema_id: listId, filters: { title: 'a' } }),
      ][pick(6)]!();
      statuses.add(res.status);
      if (sentAt <= deletedAt) return false;
      late.push(res.status);
      return true;
    };
    // Counted calls, not time windows (see CALLS_PER_WORKER): the delete goes out once the
    // writers have sent BEFORE_DELETE calls, and each writer stops after LATE_PER_WORKER
    // calls sent once it was answered.
    const BEFORE_DELETE = 60;
    const LATE_PER_WORKER = 3;
    const writers = 6;
    let deleted!: () => void;
    const deleteDue = new Promise<void>((resolve) => (deleted = resolve));
    await Promise.all([
      ...Array.from({ length: writers }, async (_, w) => {
        const pick = choices(100 + w);
        // bounded, so a delete that never lands fails the checks below instead of hanging
        for (let own = 0, lateOwn = 0; lateOwn < LATE_PER_WORKER && own < 2_000; own++) {
          if (await write(pick)) lateOwn++;
          if (sent >= BEFORE_DELETE) deleted();
        }
      }),
      (async () => {
        await deleteDue;
        const res = await api('deleteListSchema', { schema_id: listId });
        expect(res.status).toBeLessThan(300);
        deletedAt = Date.now();
      })(),
    ]);
    expect([...statuses].filter((s) => s >= 500)).toEqual([]);
    expect(late.length).toBe(writers * LATE_PER_WORKER);
    // sent after the list was deleted: not found, whatever the method
    expect([...new Set(late)]).toEqual([404]);
    const [list] = await queryRows<{ deleted: boolean }>(
      t.db,
      sql`select deleted_at is not null as deleted from list_schemas where id = ${listId}`,
    );
    expect(list?.deleted ?? true).toBe(true);
  }, 30_000);
});
