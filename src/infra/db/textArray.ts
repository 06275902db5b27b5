/** A Postgres array literal, so the same statement works on pg and PGlite alike. */
export function pgTextArray(items: readonly string[]): string {
  return `{${items.map((t) => `"${t.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
