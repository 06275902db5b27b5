import { describe, expect, it } from 'vitest';
import { INDEXED_ARRAY_NOTE } from '../../src/openapi/jsonSchema.js';
import { textEncodedSchema, textStyle } from '../../src/openapi/textEncoding.js';
import { BLANK_JSON_SCHEMAS } from '../../src/shared/paramTypes.js';

const blankText = BLANK_JSON_SCHEMAS[1]!;

describe('textEncodedSchema: a parameter as a query string or form body carries it', () => {
  it('drops null, keeping blank text and the description', () => {
    expect(
      textEncodedSchema({
        description: 'Page',
        anyOf: [{ type: 'integer', minimum: 1 }, ...BLANK_JSON_SCHEMAS],
      }),
    ).toEqual({ description: 'Page', anyOf: [{ type: 'integer', minimum: 1 }, blankText] });
    expect(textEncodedSchema({ type: ['string', 'null'] })).toEqual({ type: 'string' });
  });

  it('bounds every array by the parser’s 200 items and to at least one, at any depth', () => {
    const schema = textEncodedSchema({
      type: 'object',
      required: ['items'],
      properties: {
        items: { type: 'array', maxItems: 1000, items: { type: 'array', items: {} } },
      },
    });
    expect(schema.properties).toEqual({
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 200,
        items: { type: 'array', items: {}, minItems: 1, maxItems: 200 },
      },
    });
  });

  it('reads an indexed array as the object it is, with no blank form and plain keys', () => {
    const schema = textEncodedSchema({
      anyOf: [
        { type: 'object', additionalProperties: {} },
        { type: 'array', description: INDEXED_ARRAY_NOTE },
        ...BLANK_JSON_SCHEMAS,
      ],
    });
    expect(schema).toMatchObject({
      type: 'object',
      minProperties: 1,
      propertyNames: {
        pattern: '^[^\\[\\]]+$',
        not: { enum: expect.arrayContaining(['__proto__']) },
      },
    });
    expect(schema.anyOf).toBeUndefined();
  });

  it('lets a whole body be empty, and leaves `not` and `if` as they are', () => {
    const rule = { not: { anyOf: BLANK_JSON_SCHEMAS } };
    const body = textEncodedSchema(
      { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ if: rule, then: rule }] },
      false,
    );
    expect(body.minProperties).toBeUndefined();
    expect(body.allOf).toEqual([{ if: rule, then: rule }]);
  });
});

describe('textStyle: how a parameter travels as text', () => {
  it('writes an object as deepObject, and says where its values nest deeper', () => {
    const flat = { type: 'object', additionalProperties: { type: 'string' } };
    expect(textStyle('filters', flat).style).toEqual({ style: 'deepObject', explode: true });
    const nested = { type: 'object', additionalProperties: {} };
    expect(textStyle('data', nested).style).toEqual({
      style: 'deepObject',
      explode: true,
      'x-bracket-notation': 'data[<key>][<key or index>]=<value>',
    });
  });

  it('repeats an array of plain values, and never calls an array of objects deepObject', () => {
    const tags = { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] };
    expect(textStyle('tags', tags).style).toEqual({ style: 'form', explode: true });
    const fields = { type: 'array', items: { type: 'object', properties: {} } };
    expect(textStyle('fields', fields).style).toEqual({
      'x-bracket-notation': 'fields[0][<key>]=<value>',
    });
  });

  it('gives a plain value no style (form, the default)', () => {
    expect(textStyle('page', { type: 'integer' })).toEqual({
      schema: { type: 'integer' },
      style: {},
    });
  });
});
