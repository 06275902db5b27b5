import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, fromDomainError } from '../../src/http/httpErrors.js';
import { DomainError, ValidationError } from '../../src/shared/domainErrors.js';
import { boolParam, idParam, intParam, textParam } from '../../src/shared/paramTypes.js';
import {
  parseParams,
  parseQueryForRouter,
  QS_LIMITS,
  queryParams,
} from '../../src/http/queryParser.js';
import { indexKeyed } from '../../src/shared/indexedArrays.js';
import { validateParams } from '../../src/shared/validate.js';

function errorsOf(fn: () => unknown): Record<string, string[]> {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.errors;
    throw err;
  }
  throw new Error('expected a validation error');
}

function status(fn: () => unknown): number | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    if (err instanceof DomainError) return fromDomainError(err).status;
    throw err;
  }
}

const many = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join('&');

describe('parseParams: qs with explicit limits', () => {
  it('reads bracket notation, percent-encoding and + as space', () => {
    expect(
      parseParams('fields[0][name]=A%20b&filters[slug]=like,%25x%25&q=a+b&e=%E2%82%AC'),
    ).toEqual({
      fields: [{ name: 'A b' }],
      filters: { slug: 'like,%x%' },
      q: 'a b',
      e: '€',
    });
  });

  it('keeps a malformed escape as text instead of failing', () => {
    expect(parseParams('a=%zz')).toEqual({ a: '%zz' });
  });

  it(`keeps arrays as arrays up to ${QS_LIMITS.arrayLimit} items, indexed or repeated`, () => {
    const indexed = parseParams(many(200, (i) => `a[${i}]=${i}`));
    const repeated = parseParams(many(200, (i) => `a[]=${i}`));
    for (const parsed of [indexed, repeated]) {
      expect(Array.isArray(parsed.a)).toBe(true);
      expect(parsed.a).toHaveLength(200);
    }
    expect(parseParams('a[25][slug]=x')).toEqual({ a: [{ slug: 'x' }] });
  });

  it('refuses more array items than the limit with 400, never turning them into objects', () => {
    expect(status(() => parseParams(many(201, (i) => `a[${i}]=${i}`)))).toBe(400);
    expect(status(() => parseParams(many(201, (i) => `a[]=${i}`)))).toBe(400);
    expect(status(() => parseParams(many(201, (i) => `a=${i}`)))).toBe(400);
  });

  it('reads an index past the limit as a key, and keeps the indexes written for objects', () => {
    expect(parseParams('filters[492]=x&filters[a]=y')).toEqual({ filters: { 492: 'x', a: 'y' } });
    const gapped = parseParams('data[5]=x&data[2]=y').data as unknown[];
    expect(gapped).toEqual(['y', 'x']);
    expect(indexKeyed(gapped)).toEqual({ 2: 'y', 5: 'x' });
    expect(indexKeyed(parseParams('data[0]=x&data[1]=y').data as unknown[])).toEqual({
      0: 'x',
      1: 'y',
    });
  });

  it(`accepts depth ${QS_LIMITS.depth} and refuses deeper nesting with 400`, () => {
    expect(status(() => parseParams('a[b][c][d][e][f]=1'))).toBe('ok');
    expect(status(() => parseParams('a[b][c][d][e][f][g]=1'))).toBe(400);
  });

  it(`accepts ${QS_LIMITS.parameterLimit} parameters and refuses more with 400`, () => {
    expect(status(() => parseParams(many(2000, (i) => `p${i}=1`)))).toBe('ok');
    expect(status(() => parseParams(many(2001, (i) => `p${i}=1`)))).toBe(400);
  });

  it('drops keys that would reach Object.prototype', () => {
    const parsed = parseParams('__proto__[x]=1&constructor[prototype][x]=1&toString=1&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('the router-side query parser never throws', () => {
  it('carries a limit failure to the route, which throws it there as 400', () => {
    const query = parseQueryForRouter('a[b][c][d][e][f][g]=1');
    expect(status(() => queryParams(query))).toBe(400);
  });

  it('passes a good query through, and treats a missing one as empty', () => {
    expect(queryParams(parseQueryForRouter('a=1'))).toEqual({ a: '1' });
    expect(queryParams(undefined)).toEqual({});
  });
});

describe('parameter types: GET and form values arrive as text', () => {
  const int = intParam();
  const bool = boolParam();

  it.each([
    ['2', 2],
    [' 2 ', 2],
    ['-3', -3],
    ['007', 7],
    [2, 2],
    [0, 0],
  ])('reads the integer %j as %j', (input, out) => {
    expect(int.parse(input)).toBe(out);
  });

  it.each([['2.5'], ['1e3'], ['0x10'], [''], ['abc'], [2.5], [true], [null], ['9007199254740993']])(
    'refuses %j as an integer',
    (input) => {
      expect(int.safeParse(input).success).toBe(false);
    },
  );

  it.each([
    [true, true],
    ['true', true],
    ['1', true],
    [1, true],
    [false, false],
    ['false', false],
    ['0', false],
    [0, false],
  ])('reads the boolean %j as %j', (input, out) => {
    expect(bool.parse(input)).toBe(out);
  });

  it.each([['yes'], ['TRUE '], [''], [2], [null], ['on']])('refuses %j as a boolean', (input) => {
    expect(bool.safeParse(input).success).toBe(false);
  });

  it('holds ids and text to their lengths', () => {
    expect(idParam().safeParse('').success).toBe(false);
    expect(idParam().safeParse('x'.repeat(256)).success).toBe(false);
    expect(idParam().safeParse(12).success).toBe(false);
    expect(textParam().safeParse('x'.repeat(255)).success).toBe(true);
    expect(textParam().safeParse('x'.repeat(256)).success).toBe(false);
    expect(textParam(3).safeParse('abcd').success).toBe(false);
  });
});

describe('validateParams: every failing field, dotted keys (the error rules)', () => {
  const schema = z.object({
    name: textParam(),
    page: intParam().optional(),
    field: z.object({ slug: textParam(5), currency: z.string().length(3) }),
    fields: z.array(z.object({ slug: z.string().regex(/^[a-z]+$/, 'letters only') })),
  });

  it('returns the typed, coerced parameters when they are valid', () => {
    expect(
      validateParams(schema, {
        name: 'n',
        page: '3',
        field: { slug: 's', currency: 'EUR' },
        fields: [{ slug: 'a' }],
        extra: 'dropped',
      }),
    ).toEqual({
      name: 'n',
      page: 3,
      field: { slug: 's', currency: 'EUR' },
      fields: [{ slug: 'a' }],
    });
  });

  it('lists every failure under its dotted key, with a readable message', () => {
    const errors = errorsOf(() =>
      validateParams(schema, {
        page: 'x',
        field: { slug: 'toolong', currency: 'EURO' },
        fields: [{ slug: 'ok' }, { slug: 'NO' }, {}],
      }),
    );
    expect(Object.keys(errors).sort()).toEqual(
      ['field.currency', 'field.slug', 'fields.1.slug', 'fields.2.slug', 'name', 'page'].sort(),
    );
    expect(errors.name).toEqual(['The name field is required.']);
    expect(errors['fields.2.slug']).toEqual(['The slug field is required.']);
    expect(errors['fields.1.slug']).toEqual(['The slug field: letters only']);
    expect(errors.page).toEqual(['The page field: must be an integer']);
  });

  it('puts a failure of the whole object under "params"', () => {
    const whole = z.object({ a: z.string().optional() }).refine((v) => v.a, 'give a');
    expect(errorsOf(() => validateParams(whole, {}))).toEqual({
      params: ['The params field: give a'],
    });
  });

  it('summarises the errors in message as Laravel does', () => {
    expect.assertions(1);
    try {
      validateParams(schema, {});
    } catch (err) {
      expect(fromDomainError(err as ValidationError).body).toEqual({
        message: 'The name field is required. (and 2 more errors)',
        errors: expect.any(Object),
      });
    }
  });
});
