import fc from 'fast-check';

/**
 * Hostile values for the fuzzer. A `Raw` value is written into a JSON
 * body as it stands (so `1e309`, `-0`, `9223372036854775808` and even invalid JSON such as
 * `NaN` reach the server verbatim) and as `text` in a query string or form body.
 */
export class Raw {
  constructor(
    readonly json: string,
    readonly text: string = json,
    /** true when `json` is not valid JSON: the server must answer 400 */
    readonly malformed = false,
  ) {}
}

/** An object with exactly these own keys, `__proto__` included (a literal would set the prototype). */
export function ownObject(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return o;
}

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));

export const SPECIAL_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00',
  '\uDBFF\uDBFF',
  '\u202Eevil\u202C',
  '\u200F\u05D0\u05D1',
  'مرحبا',
  '😀',
  '\uFEFF',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9223372036854775808',
  '-9223372036854775809',
  '0x1F',
  '1_000',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '[object Object]',
  '2024-02-30',
  '2023-02-29',
  '2024-13-01',
  '0000-00-00',
  '2024-02-29T24:00:00Z',
  '2024-01-01T00:00:60Z',
  '2024-01-01T00:00+25:00',
  '+275760-09-13',
  "'; DROP TABLE accounts; --",
  "' OR '1'='1",
  '"; select pg_sleep(5); --',
  '$.a[*] ? (@ > 1)',
  'strict $.**',
  '%',
  '%%%%%%%%%%%%%%%%%%%%%%',
  '_',
  '\\',
  '\\%',
  'like,%',
  'not like,%a%',
  '>=,',
  ',',
  'asc',
  ',desc',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'prototype',
  'id',
  'created_at',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.oneof(
        loneSurrogate,
        fc.constantFrom('\u0000', '\u202E', '\u200F', 'a', '%', '_', ',', '\\', '"', "'", 'é'),
      ),
      maxLength: 30,
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '😀', '\u0000', '%'), fc.constantFrom(255, 256, 500, 501))
      .map(([c, n]) => c.repeat(n)),
  },
  { weight: 1, arbitrary: fc.constant('x'.repeat(2049)) },
);

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    -(2 ** 63),
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    1e21,
  ),
  fc.constantFrom(
    new Raw('1e309'),
    new Raw('-1e309'),
    new Raw('-0'),
    new Raw('9223372036854775808'),
    new Raw('-9223372036854775809'),
    new Raw('123456789012345678901234567890'),
    new Raw('1E2'),
    new Raw('0.0000000000000000000000001'),
  ),
  fc.integer(),
  fc.double(),
);

/** Not JSON at all: only the JSON transport sends these, and the answer must be 400. */
export const malformedJsonNumber = fc.constantFrom(
  new Raw('NaN', 'NaN', true),
  new Raw('Infinity', 'Infinity', true),
  new Raw('0x10', '0x10', true),
  new Raw('01', '01', true),
  new Raw('.5', '.5', true),
);

export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
    '',
    ' ',
    'a.b',
    'a[b]',
    '[',
    ']',
    '0',
    '-1',
    '1e3',
    'api_token',
  ),
  fc.string({ maxLength: 12 }),
);

/** Nesting as deep as `depth`, alternating arrays and objects (kept as Raw: no recursion here). */
export function deepNesting(depth: number): Raw {
  const json = '[{"a":'.repeat(depth) + '1' + '}]'.repeat(depth);
  return new Raw(json, 'deep');
}

export const leaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Arrays and objects of hostile leaves, hostile keys included, a few levels deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 })
        .map((entries) => ownObject(entries)),
    },
  ),
})).value;

/** Rare, expensive shapes (one per request at most): huge, deep, wide, or not JSON at all. */
export const extremeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(8, 64).map((d) => deepNesting(d)),
  fc.constant(null).map(() => 'x'.repeat(70_000)),
  fc.constant(null).map(() => '\u0000'.repeat(10_000)),
  malformedJsonNumber,
  fc.constant(null).map(() => deepNesting(10_000)),
  fc.constant(null).map(() => ownObject(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))),
  fc.constant(null).map(() => Array.from({ length: 1_000 }, (_, i) => i)),
);
