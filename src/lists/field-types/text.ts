/**
 * Text Postgres can store: no NUL (text and jsonb reject it) and no lone UTF-16 surrogate
 * (jsonb rejects the `\ud800` escape JSON.stringify writes for it). Checked on every text
 * that reaches a query, so such input is a 422, never a 500.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** Length in characters (code points), as a person counts them. */
export function charLength(text: string): number {
  return Array.from(text).length;
}
