import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contactsAsJson } from '../../src/contacts/contactJson.js';
import { queryRows } from '../../src/infra/db/client.js';
import { createBot } from '../helpers/factories.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * The plan of the SQL that renders contacts (contactJson.ts) on one Postgres server; a plan
 * file, so the Citus step leaves it out (on Citus the plan is the coordinator's:
 * docs/scaling.md).
 */
const t = testAppForFile({ redis: false, tenants: ['tenant'] });

describe('contacts rendered in SQL: the plan', () => {
  it('aggregates the variables once, not once per contact, on tables without statistics', async () => {
    // An import renders its own uncommitted contacts, which no statistics describe; an
    // earlier form was planned as a nested loop re-aggregating all variables per contact.
    const bot = await createBot(t.db, t.tenant.projectUuid, 'Fresh');
    const plan = await t.db.transaction(async (tx) => {
      await tx.execute(
        sql`WITH c AS (
              INSERT INTO contacts (bot_id, owner_id, messenger, telegram_id, name)
              SELECT ${bot.id}, ${t.tenant.accountId}, 'telegram', g, 'C' || g
              FROM generate_series(1, 2000) g RETURNING id, owner_id)
            INSERT INTO contact_variables (contact_id, owner_id, name, value)
            SELECT id, owner_id, n, 'v' FROM c, unnest(ARRAY['city', 'utm_source']) n`,
      );
      const [row] = await queryRows<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        tx,
        sql`EXPLAIN (ANALYZE, FORMAT JSON) ${contactsAsJson(
          t.tenant.accountId,
          sql`SELECT id FROM contacts WHERE bot_id = ${bot.id}`,
        )}`,
      );
      return row!['QUERY PLAN'][0].Plan;
    });
    const nodes = flatten(plan);
    expect(plan['Actual Rows']).toBe(2000);
    const aggregates = nodes.filter((n) => n['Node Type'] === 'Aggregate');
    expect(aggregates.length).toBeGreaterThan(0);
    for (const aggregate of aggregates) expect(aggregate['Actual Loops']).toBe(1);
  });
});

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];
