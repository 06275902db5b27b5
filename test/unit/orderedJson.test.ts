import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JsonText,
  OrderedObject,
  serializeReply,
  stringifyJson,
} from '../../src/shared/orderedJson.js';

const ordered = (...entries: Array<[string, unknown]>) => new OrderedObject(entries);

describe('stringifyJson (createListSchema: fields keep the order in which they were sent)', () => {
  it('writes the keys of an OrderedObject in their given order, digit-only slugs included', () => {
    const fields = ordered(['zeta', 1], ['10', 2], ['2', 3], ['alpha', 4]);
    expect(stringifyJson({ data: { fields } })).toBe(
      '{"data":{"fields":{"zeta":1,"10":2,"2":3,"alpha":4}}}',
    );
  });

  it('keeps the order of keys a plain object would reorder, and of those it would not', () => {
    const keys = ['b', '4294967295', '01', '-1', '1.5', '4294967294', 'a', '0'];
    const text = stringifyJson({ data: ordered(...keys.map((k, i): [string, unknown] => [k, i])) });
    expect(text).toBe(`{"data":{${keys.map((k, i) => `"${k}":${i}`).join(',')}}}`);
    // without array-index keys JSON.stringify writes it natively, still in the given order
    const plain = ['b', '4294967295', '01', '-1', '1.5', 'a'];
    expect(stringifyJson([ordered(...plain.map((k): [string, unknown] => [k, k]))])).toBe(
      `[{${plain.map((k) => `"${k}":"${k}"`).join(',')}}]`,
    );
  });

  it('finds an OrderedObject at any depth and in any array item, not only the first', () => {
    const body = {
      data: [
        { id: 'a', fields: {} },
        { id: 'b', fields: ordered(['2', 'x'], ['1', 'y']) },
      ],
      meta: { deep: { deeper: { deepest: { here: ordered(['b', 1], ['a', 2]) } } } },
    };
    const text = stringifyJson(body);
    expect(text).toContain('"fields":{"2":"x","1":"y"}');
    expect(text).toContain('"here":{"b":1,"a":2}');
    expect(text).not.toContain('entries');
  });

  it('writes nested plain values inside an OrderedObject as JSON would', () => {
    const when = new Date('2030-01-02T03:04:05.000Z');
    const value = ordered(
      ['file', { url: 'https://x.test/a.png', meta: { width: null } }],
      ['tags', ['a', undefined, 'b']],
      ['skipped', undefined],
      ['at', when],
      ['text', 'quote " and \\ and \u2028'],
    );
    expect(JSON.parse(stringifyJson(value))).toEqual({
      file: { url: 'https://x.test/a.png', meta: { width: null } },
      tags: ['a', null, 'b'],
      at: '2030-01-02T03:04:05.000Z',
      text: 'quote " and \\ and \u2028',
    });
  });

  it('matches JSON.stringify for any plain JSON value next to an OrderedObject', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const expected = `{"o":{},"v":${JSON.stringify(v) ?? 'null'}}`;
        const actual = stringifyJson({ o: ordered(), v });
        return JSON.stringify(JSON.parse(actual)) === JSON.stringify(JSON.parse(expected));
      }),
    );
  });

  it('is exactly JSON.stringify when there is no OrderedObject', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => stringifyJson(v) === (JSON.stringify(v) ?? 'null')),
    );
  });

  it('places JsonText as written, at any depth, next to ordered and plain values', () => {
    const body = {
      data: [new JsonText('{"id":1,"b" : [1,2]}'), new JsonText('{"id":2}')],
      meta: { total: 2, fields: ordered(['2', 'x'], ['1', 'y']) },
    };
    expect(stringifyJson(body)).toBe(
      '{"data":[{"id":1,"b" : [1,2]},{"id":2}],"meta":{"total":2,"fields":{"2":"x","1":"y"}}}',
    );
    expect(stringifyJson(new JsonText('[]'))).toBe('[]');
  });

  it('leaves JSON.stringify outside the serializer correct (a log line parses JsonText back)', () => {
    expect(JSON.stringify({ a: new JsonText('{"x" : 1}') })).toBe('{"a":{"x":1}}');
    expect(stringifyJson({ ok: 1 })).toBe('{"ok":1}');
    expect(JSON.stringify({ a: new JsonText('{"x" : 1}') })).toBe('{"a":{"x":1}}');
  });
});

describe('serializeReply (the reply serializer)', () => {
  it('answers a string when JSON.stringify could write the answer itself', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => serializeReply(v) === (JSON.stringify(v) ?? 'null')),
    );
  });

  it('answers the UTF-8 bytes of stringifyJson when the answer was written piece by piece', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', 'é', 'Я', '😀', '\u2028') });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 5 }), text, (names, key) => {
        const body = {
          data: names.map((name) => new JsonText(JSON.stringify({ name }))),
          meta: ordered([key, names.length], ['1', null], ['skipped', undefined]),
        };
        const reply = serializeReply(body);
        expect(Buffer.isBuffer(reply)).toBe(true);
        expect((reply as Buffer).equals(Buffer.from(stringifyJson(body)))).toBe(true);
        expect(JSON.parse((reply as Buffer).toString('utf8'))).toEqual({
          data: names.map((name) => ({ name })),
          meta: { [key]: names.length, '1': null },
        });
      }),
    );
  });
});
