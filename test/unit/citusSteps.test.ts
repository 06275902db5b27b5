import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { citusSteps, DISTRIBUTED_TABLES } from '../../src/infra/db/distribution.js';

/** docs/scaling.md shows the Citus steps exactly as the placement map gives them. */
describe('the Citus steps', () => {
  it('are in docs/scaling.md as citusSteps() prints them', () => {
    const doc = readFileSync('docs/scaling.md', 'utf8');
    const block = /```sql\n(SELECT create_reference_table[\s\S]*?)\n```/.exec(doc)?.[1];
    expect(block).toBe(citusSteps().join('\n'));
  });

  it('distribute a referenced table before the tables that refer to it', () => {
    const order = citusSteps().join('\n');
    const at = (table: string) => order.indexOf(`'${table}'`);
    const before: [string, string][] = [
      ['projects', 'bots'],
      ['bots', 'contacts'],
      ['contacts', 'contact_variables'],
      ['list_schemas', 'list_field_erasures'],
    ];
    for (const [referenced, referencing] of before) {
      expect(at(referenced), `${referenced} before ${referencing}`).toBeLessThan(at(referencing));
    }
    // every distributed table after the first is colocated with it
    expect(order.match(/colocate_with => 'bots'/g)).toHaveLength(
      Object.keys(DISTRIBUTED_TABLES).length - 1,
    );
  });
});
