import { describe, expect, it } from 'vitest';
import { citusDistributionSteps } from '../../src/infra/db/citusDistribution.js';
import { citusOnlineSteps } from '../../src/infra/db/citusOnlineDistribution.js';
import { DISTRIBUTED_TABLES, REFERENCE_TABLES } from '../../src/infra/db/distribution.js';

const fk = {
  tbl: 'contacts',
  conname: 'contacts_bot_fk',
  def: 'FOREIGN KEY (owner_id, bot_id) REFERENCES bots(owner_id, id)',
};

/** The order Citus accepts (checked on a three-node cluster, docs/scaling.md). */
describe('the Citus distribution step', () => {
  it('drops the foreign keys, places reference then distributed tables, adds the keys back', () => {
    const steps = citusDistributionSteps([fk], new Set());
    const at = (needle: string) => steps.findIndex((s) => s.includes(needle));
    expect(steps[0]).toBe('SET LOCAL citus.enable_unsafe_triggers = on');
    expect(at('DROP CONSTRAINT "contacts_bot_fk"')).toBeLessThan(at('create_reference_table'));
    expect(at(`create_reference_table('${REFERENCE_TABLES.at(-1)}')`)).toBeLessThan(
      at('create_distributed_table'),
    );
    expect(steps).toContain("SELECT create_distributed_table('bots', 'owner_id')");
    expect(steps.filter((s) => s.includes("colocate_with => 'bots'"))).toHaveLength(
      Object.keys(DISTRIBUTED_TABLES).length - 1,
    );
    // the transition-table triggers are gone before contacts is distributed; the row trigger
    // that replaces them comes after the copies (inserts into the shards would fire it), and
    // is the only trigger the step adds
    expect(at('DROP TRIGGER IF EXISTS contacts_stats_insert')).toBeLessThan(
      at("create_distributed_table('contacts'"),
    );
    expect(at('CREATE TRIGGER contacts_stats_row')).toBeGreaterThan(
      at("create_distributed_table('contacts'"),
    );
    expect(steps.filter((s) => s.includes('CREATE TRIGGER'))).toHaveLength(1);
    expect(steps.at(-1)).toBe(`ALTER TABLE contacts ADD CONSTRAINT "contacts_bot_fk" ${fk.def}`);
  });

  it('places only the tables not placed yet', () => {
    const placed = new Set([...REFERENCE_TABLES, 'bots', 'contacts']);
    const steps = citusDistributionSteps([], placed);
    expect(steps.some((s) => s.includes('create_reference_table'))).toBe(false);
    expect(steps.some((s) => s.includes("'bots', 'owner_id')"))).toBe(false);
    expect(steps.some((s) => s.includes('contacts_stats'))).toBe(false);
    expect(steps).toContain(
      "SELECT create_distributed_table('list_items', 'owner_id', colocate_with => 'bots')",
    );
  });

  it('online: each statement on its own, the big tables copied concurrently, keys validated after', () => {
    const steps = citusOnlineSteps([fk], new Set());
    const at = (needle: string) => steps.findIndex((s) => s.includes(needle));
    expect(steps).not.toContain('BEGIN;');
    expect(steps.some((s) => /create_distributed_table\(/.test(s))).toBe(false);
    expect(steps).toContain(
      "SELECT create_distributed_table_concurrently('list_items', 'owner_id', colocate_with => 'bots')",
    );
    // the stats triggers are swapped in one transaction of their own
    expect(steps[at('DROP TRIGGER IF EXISTS contacts_stats_insert') - 1]).toBe('BEGIN');
    expect(at(`ADD CONSTRAINT "contacts_bot_fk" ${fk.def} NOT VALID`)).toBeGreaterThan(
      at("create_distributed_table_concurrently('idempotency_keys'"),
    );
    expect(at('VALIDATE CONSTRAINT "contacts_bot_fk"')).toBeGreaterThan(at('NOT VALID'));
  });

  it('adds back, in both modes, the keys a killed run left dropped, and drops only those there', () => {
    const left = { ...fk, conname: 'contacts_left_fk' };
    for (const steps of [
      citusDistributionSteps([fk], new Set(), [left]),
      citusOnlineSteps([fk], new Set(), [left]),
    ]) {
      expect(steps.filter((s) => s.includes('DROP CONSTRAINT'))).toEqual([
        'ALTER TABLE contacts DROP CONSTRAINT "contacts_bot_fk"',
      ]);
      expect(steps.some((s) => s.includes('ADD CONSTRAINT "contacts_left_fk"'))).toBe(true);
      expect(steps.some((s) => s.includes('ADD CONSTRAINT "contacts_bot_fk"'))).toBe(true);
    }
  });
});
