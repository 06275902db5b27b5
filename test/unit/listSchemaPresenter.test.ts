import { describe, expect, it } from 'vitest';
import type { ListSchemaRow } from '../../src/infra/db/schema/listSchemas.js';
import { stringifyJson } from '../../src/shared/orderedJson.js';
import { presentListSchema } from '../../src/lists/schemas/listSchemaPresenter.js';

const row: ListSchemaRow = {
  id: 'list-1',
  projectUuid: '7d0c1a7e-0000-4000-8000-000000000001',
  ownerId: 1,
  botId: null,
  name: 'Orders',
  fields: [
    {
      slug: '10',
      name: 'Ten',
      type: 'number',
      is_required: true,
      is_hidden: false,
      is_encryptable: false,
      slot: 'n1',
    },
    {
      slug: 'b',
      name: 'B',
      type: 'money',
      currency: 'EUR',
      is_required: false,
      is_hidden: true,
      is_encryptable: false,
      slot: 'n2',
    },
    {
      slug: '2',
      name: 'Two',
      type: 'string',
      is_required: true,
      is_hidden: false,
      is_encryptable: true,
    },
  ],
  isMenu: false,
  itemCount: 3,
  version: 0,
  createdAt: new Date('2024-05-01T08:00:00Z'),
  updatedAt: new Date('2024-05-02T09:30:00.123Z'),
  deletedAt: null,
  layout: 0,
};

describe('list schema presenter (the list schema shape, the field shape)', () => {
  it('serializes fields in stored order, all-digit slugs included', () => {
    const json = stringifyJson({ data: presentListSchema(row) });
    expect(json.indexOf('"10":')).toBeLessThan(json.indexOf('"b":'));
    expect(json.indexOf('"b":')).toBeLessThan(json.indexOf('"2":'));
  });

  it('renders the spec shape without internal columns', () => {
    const parsed = JSON.parse(stringifyJson({ data: presentListSchema(row) }));
    expect(parsed.data).toEqual({
      id: 'list-1',
      fields: {
        '10': {
          name: 'Ten',
          type: 'number',
          is_required: true,
          is_hidden: false,
          is_encryptable: false,
        },
        b: {
          name: 'B',
          type: 'money',
          currency: 'EUR',
          is_required: false,
          is_hidden: true,
          is_encryptable: false,
        },
        '2': {
          name: 'Two',
          type: 'string',
          is_required: true,
          is_hidden: false,
          is_encryptable: true,
        },
      },
      name: 'Orders',
      bot_id: null,
      project: '7d0c1a7e-0000-4000-8000-000000000001',
      is_menu: false,
      created_at: '2024-05-01T08:00:00.000Z',
      updated_at: '2024-05-02T09:30:00.123Z',
    });
    expect(JSON.stringify(parsed)).not.toMatch(/slot|owner|item_count|deleted/);
  });

  it('keeps the order inside a page of lists too', () => {
    const json = stringifyJson({ data: [presentListSchema(row)], meta: {} });
    expect(json.indexOf('"10":')).toBeLessThan(json.indexOf('"2":'));
  });
});
