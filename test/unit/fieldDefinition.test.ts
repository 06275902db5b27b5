import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/shared/domainErrors.js';
import { validateParams } from '../../src/shared/validate.js';
import { CURRENCIES } from '../../src/lists/schemas/currencies.js';
import { createTargetParams } from '../../src/lists/schemas/createTarget.js';
import { fieldDefinition, fieldList } from '../../src/lists/schemas/fieldDefinition.js';
import { RESERVED_SLUGS } from '../../src/lists/schemas/reservedSlugs.js';

/** The 422 keys a value produces, or [] when it is valid. */
function keysOf(schema: Parameters<typeof validateParams>[0], value: unknown): string[] {
  try {
    validateParams(schema, value);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return Object.keys(err.errors).sort();
  }
}

describe('field definitions (the field shape, createListSchema, addListSchemaField)', () => {
  it('applies the defaults: required, visible, not encrypted', () => {
    expect(
      validateParams(fieldDefinition('create'), { name: 'A', slug: 'a', type: 'date' }),
    ).toEqual({
      name: 'A',
      slug: 'a',
      type: 'date',
      is_required: true,
      is_hidden: false,
      is_encryptable: false,
    });
  });

  it('treats null and empty flags as not sent', () => {
    const field = validateParams(fieldDefinition('add'), {
      name: 'A',
      slug: 'a',
      type: 'string',
      is_required: '',
      is_hidden: null,
    });
    expect(field).toMatchObject({ is_required: true, is_hidden: false });
  });

  it('gives a money field USD on create but requires a currency on add', () => {
    const money = { name: 'M', slug: 'm', type: 'money' };
    expect(validateParams(fieldDefinition('create'), money).currency).toBe('USD');
    expect(keysOf(fieldDefinition('add'), money)).toEqual(['currency']);
    expect(validateParams(fieldDefinition('add'), { ...money, currency: 'GBP' }).currency).toBe(
      'GBP',
    );
  });

  it('drops a currency sent with a type other than money, valid or not', () => {
    const field = validateParams(fieldDefinition('add'), {
      name: 'S',
      slug: 's',
      type: 'string',
      currency: 42,
    });
    expect(field).not.toHaveProperty('currency');
  });

  it('knows the ISO 4217 codes the spec names, in upper case only', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'JPY', 'CHF']) expect(CURRENCIES.has(code)).toBe(true);
    for (const code of ['usd', 'XYZ', 'US', 'EURO']) expect(CURRENCIES.has(code)).toBe(false);
  });

  it.each(['a', 'A_b-9', '123', 's'.repeat(255)])('accepts the slug %s', (slug) => {
    expect(keysOf(fieldDefinition('create'), { name: 'N', slug, type: 'string' })).toEqual([]);
  });

  it.each(['', 's'.repeat(256), 'a b', 'é', 'a.b', 'a\u0000', ...RESERVED_SLUGS])(
    'refuses the slug %j',
    (slug) => {
      expect(keysOf(fieldDefinition('create'), { name: 'N', slug, type: 'string' })).toEqual([
        'slug',
      ]);
    },
  );

  it('reports every failing key of one field, the currency check included', () => {
    expect(
      keysOf(fieldDefinition('add'), { name: '', slug: 'id', type: 'money', is_hidden: 'x' }),
    ).toEqual(['currency', 'is_hidden', 'name', 'slug']);
  });

  it.each([null, 'text', 7, []])('refuses a field that is %j without crashing', (value) => {
    expect(keysOf(fieldDefinition('add'), value)).toEqual(['params']);
  });
});

describe('field lists of createListSchema (createListSchema)', () => {
  const f = (slug: string) => ({ name: slug, slug, type: 'string' });

  it('marks every repeat of a slug, not the first use', () => {
    expect(keysOf(fieldList(), [f('a'), f('b'), f('a'), f('b'), f('a')])).toEqual([
      '2.slug',
      '3.slug',
      '4.slug',
    ]);
  });

  it('treats slugs as case-sensitive', () => {
    expect(keysOf(fieldList(), [f('a'), f('A')])).toEqual([]);
  });

  it('reports a repeat together with other fields’ errors', () => {
    expect(keysOf(fieldList(), [f('a'), { ...f('a'), type: 'x' }])).toEqual(['1.slug', '1.type']);
  });

  it('keeps the order sent', () => {
    const parsed = validateParams(fieldList(), [f('10'), f('2'), f('b'), f('1')]);
    expect(parsed.map((x) => x.slug)).toEqual(['10', '2', 'b', '1']);
  });
});

describe('where createListSchema puts the list (createListSchema)', () => {
  it('uses bot_id and ignores project_uuid when both are sent', () => {
    expect(validateParams(createTargetParams, { bot_id: '5', project_uuid: 'junk' })).toEqual({
      bot_id: 5,
      project_uuid: undefined,
    });
  });

  it('asks for both keys when neither is sent (empty values count as not sent)', () => {
    expect(keysOf(createTargetParams, {})).toEqual(['bot_id', 'project_uuid']);
    expect(keysOf(createTargetParams, { bot_id: '', project_uuid: null })).toEqual([
      'bot_id',
      'project_uuid',
    ]);
  });

  it('refuses a malformed UUID and a non-integer bot id', () => {
    expect(keysOf(createTargetParams, { project_uuid: '1234' })).toEqual(['project_uuid']);
    expect(keysOf(createTargetParams, { bot_id: '1.5' })).toEqual(['bot_id']);
  });
});
