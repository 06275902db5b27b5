import fc from 'fast-check';

/** Text of the characters where two JSON writers could differ: escapes, controls, astral. */
export const awkwardText = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({
    unit: fc.constantFrom(
      'a',
      'Z',
      ' ',
      '"',
      '\\',
      '/',
      '\n',
      '\t',
      '\u0001',
      '\u001f',
      '\u007f',
      '\u2028',
      'é',
      'Я',
      '😀',
      '<',
      '&',
      "'",
    ),
    maxLength: 12,
    ...constraints,
  });
