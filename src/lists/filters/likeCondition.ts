import { sql, type SQL } from 'drizzle-orm';

/**
 * getListItems' `like` is case-insensitive: `ILIKE`, which Postgres (on a UTF-8 database)
 * evaluates as `lower(value) LIKE lower(pattern)`, lowering each row's value into a new
 * string. Over the rows a count tests that is most of its cost: `city like 'c%'` beside a range
 * matching half the 1M list, 242 ms against 112 for the range alone (docs/records.md, "`like`").
 *
 * Where the pattern's letters are few and plain ASCII, a value of ASCII characters only
 * matches it exactly when it matches, case-sensitively, one of the pattern's case variants
 * (`c%` → `c%`, `C%`): lowering an ASCII value changes only its letters, each to its own
 * small letter, so a letter of the value equals a letter of the pattern's lowered text
 * exactly when it is one of that letter's two cases. `i` and `I` are left to ILIKE: in a
 * Turkish locale `I` lowers to a dotless `ı`. A value holding any other character (more bytes
 * than characters) is tested by ILIKE as before. The same rows match, at 145 ms there.
 */

/** Letters a pattern may hold for its case variants (2 letters: 4 variants) to be used. */
const MAX_VARIANT_LETTERS = 2;

/** The pattern's case variants, or undefined where ILIKE alone is the exact test. */
export function caseVariants(pattern: string): string[] | undefined {
  if (!/^[\x20-\x7e]*$/.test(pattern) || /[iI]/.test(pattern)) return undefined;
  const letters = pattern.match(/[a-zA-Z]/g)?.length ?? 0;
  if (letters > MAX_VARIANT_LETTERS) return undefined;
  let variants = [''];
  for (const ch of pattern) {
    const cases = /[a-zA-Z]/.test(ch) ? [ch.toLowerCase(), ch.toUpperCase()] : [ch];
    variants = variants.flatMap((v) => cases.map((c) => v + c));
  }
  return variants;
}

/**
 * `column` matches `pattern` as getListItems' `like` says: case-insensitive, `%` any run, `_`
 * one character, a backslash an ordinary character (`ESCAPE ''`). The variants only where
 * `column` is a slot: a field read from JSONB is extracted again by each variant, which cost
 * more than ILIKE's lowering (`'%x5%'` over 100,000 records: 65–69 ms against 58).
 */
export function compileLike(column: SQL, pattern: string, onSlot: boolean): SQL {
  const ilike = sql`${column} ilike ${pattern} escape ''`;
  const variants = onSlot ? caseVariants(pattern) : undefined;
  if (variants === undefined) return ilike;
  const plain = variants.map((v) => sql`${column} like ${v} escape ''`);
  return sql`(${sql.join(plain, sql` or `)} or (octet_length(${column}) <> length(${column}) and ${ilike}))`;
}
