import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { emailParam, phoneParam, tagsParam } from '../../src/contacts/contactParams.js';

const parse = <S extends z.ZodType>(schema: S, v: unknown) => schema.safeParse(v);

describe('contact parameters (createOrUpdateContact, the limits)', () => {
  it('keeps phones as digits without + and refuses anything else', () => {
    expect(parse(phoneParam(), '+12345678').data).toBe('12345678');
    expect(parse(phoneParam(), ' +123456789012345 ').data).toBe('123456789012345');
    for (const bad of [
      '12345678',
      '+1234567',
      '+1234567890123456',
      '+12-345-678',
      '++12345678',
      12345678,
    ]) {
      expect(parse(phoneParam(), bad).success).toBe(false);
    }
  });

  it('treats null and empty text as a phone or email not passed', () => {
    for (const v of [null, '', '   ', undefined]) {
      expect(parse(phoneParam(), v)).toMatchObject({ success: true, data: undefined });
      expect(parse(emailParam(), v)).toMatchObject({ success: true, data: undefined });
    }
  });

  it('checks the email format and length', () => {
    expect(parse(emailParam(), 'a@example.test').success).toBe(true);
    expect(parse(emailParam(), 'not an email').success).toBe(false);
    expect(parse(emailParam(), `${'a'.repeat(250)}@example.test`).success).toBe(false);
  });

  it('cleans tags: trimmed, blanks dropped, repeats once, empty text clears', () => {
    expect(parse(tagsParam(), [' a', 'b', 'a ', '', 'c']).data).toEqual(['a', 'b', 'c']);
    expect(parse(tagsParam(), '').data).toEqual([]);
    expect(parse(tagsParam(), null).data).toBeUndefined();
  });

  it('allows 100 tags of 255 characters and no more', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(255, 'x'));
    expect(parse(tagsParam(), hundred).success).toBe(true);
    expect(parse(tagsParam(), [...hundred, 'one more']).success).toBe(false);
    expect(parse(tagsParam(), ['x'.repeat(256)]).success).toBe(false);
    expect(parse(tagsParam(), [1, 2]).success).toBe(false);
    expect(parse(tagsParam(), { a: 1 }).success).toBe(false);
  });
});
