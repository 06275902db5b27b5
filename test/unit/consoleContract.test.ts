import { describe, expect, it } from 'vitest';
import { FIELD_TYPES, fieldTypes } from '../../src/lists/field-types/fieldTypeRegistry.js';
import { curlCommand, listItemsParams, shellQuote } from '../../src/console/web/curlCommand.js';
import {
  FIELD_TYPE_NAMES,
  isSortable,
  operatorsFor,
  OPERATORS_BY_TYPE,
} from '../../src/console/web/fieldOperators.js';
import {
  editText,
  formatInstant,
  formatValue,
  webUrlOf,
} from '../../src/console/web/valueFormat.js';

/** The console's own table of what getListItems accepts stays equal to the server's. */
describe('the console offers exactly what getListItems accepts', () => {
  it('has every field type, in the registry order', () => {
    expect([...FIELD_TYPE_NAMES]).toEqual(FIELD_TYPES);
  });

  it('offers per type exactly the filter operators the type accepts', () => {
    for (const [name, type] of fieldTypes) {
      const field = { type: name, is_encryptable: false };
      expect([...operatorsFor(field)], name).toEqual([...(type.filter?.operators ?? [])]);
      expect(isSortable(field), name).toBe(type.filter !== undefined);
      // encrypted fields are skipped by filters and refused by order_by
      expect(operatorsFor({ type: name, is_encryptable: true }), name).toEqual([]);
    }
    expect(Object.keys(OPERATORS_BY_TYPE).sort()).toEqual(
      [...fieldTypes]
        .filter(([, t]) => t.filter)
        .map(([n]) => n)
        .sort(),
    );
  });
});

describe('the grid as a getListItems call', () => {
  const params = listItemsParams('L1', {
    page: 2,
    limit: 50,
    sort: { slug: 'total', direction: 'desc' },
    filters: [
      { slug: 'total', op: '>=', value: '10' },
      { slug: 'customer', op: 'like', value: "o'b%" },
    ],
  });

  it('maps each condition to "<operator>,<value>" under its slug', () => {
    expect(params).toEqual({
      schema_id: 'L1',
      page: 2,
      limit: 50,
      order_by: 'total,desc',
      filters: { total: '>=,10', customer: "like,o'b%" },
    });
  });

  it('writes it as a curl GET with bracket notation, quoted for the shell, the key left as $API_KEY', () => {
    expect(curlCommand('http://127.0.0.1:3000', 'getListItems', params)).toBe(
      [
        "curl -s -G 'http://127.0.0.1:3000/api/v1/getListItems'",
        `-H "Authorization: Bearer $API_KEY" -H 'Accept: application/json'`,
        "--data-urlencode 'schema_id=L1'",
        "--data-urlencode 'page=2'",
        "--data-urlencode 'limit=50'",
        "--data-urlencode 'order_by=total,desc'",
        "--data-urlencode 'filters[total]=>=,10'",
        `--data-urlencode 'filters[customer]=like,o'\\''b%'`,
      ].join(' \\\n  '),
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('values as grid text', () => {
  it('renders each type', () => {
    expect(formatValue(42.5, { type: 'money', currency: 'EUR' }).replace(/\u00a0/g, ' ')).toBe(
      'EUR 42.50',
    );
    expect(formatValue(1000, { type: 'money', currency: 'JPY' }).replace(/\u00a0/g, ' ')).toBe(
      'JPY 1,000',
    );
    expect(formatValue(true, { type: 'bool' })).toBe('yes');
    expect(formatValue(false, { type: 'bool' })).toBe('no');
    expect(formatValue(null, { type: 'bool' })).toBe('');
    expect(formatValue('2026-01-31T00:00:00.000Z', { type: 'date' })).toBe('2026-01-31');
    expect(formatValue('2026-01-31T10:20:30.456Z', { type: 'datetime' })).toBe(
      '2026-01-31 10:20:30 UTC',
    );
    expect(formatValue(7, { type: 'contact' })).toBe('contact #7');
    expect(formatValue(3, { type: 'bot' })).toBe('bot #3');
    expect(formatValue({ name: 'a.pdf', url: 'https://x.test/a.pdf' }, { type: 'file' })).toBe(
      'a.pdf',
    );
    expect(formatValue('<b>x</b>', { type: 'string' })).toBe('<b>x</b>');
    expect(formatInstant('2026-01-31T10:20:30Z')).toBe('2026-01-31 10:20:30 UTC');
  });

  it('links a file only to a web address', () => {
    expect(webUrlOf({ url: 'https://x.test/a.pdf' })).toBe('https://x.test/a.pdf');
    expect(webUrlOf({ url: 'javascript:alert(1)' })).toBeUndefined();
    expect(webUrlOf('https://x.test')).toBeUndefined();
  });

  it('starts an edit box in a form the API accepts back', () => {
    expect(editText('2026-01-31T00:00:00.000Z', 'date')).toBe('2026-01-31');
    expect(editText({ url: 'https://x.test/a.png' }, 'image')).toBe('https://x.test/a.png');
    expect(editText(12.5, 'money')).toBe('12.5');
    expect(editText(undefined, 'string')).toBe('');
  });
});
