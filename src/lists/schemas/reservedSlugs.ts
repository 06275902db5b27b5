/**
 * Slugs a field may not take (reserved service names; docs/decisions.md).
 * The first five are the keys a record carries at its top level (the list item shape), so a field
 * with one of them would be shadowed; the last three are JavaScript prototype names that
 * would turn a record object into a prototype-pollution vector. Matching is exact
 * (slugs are case-sensitive, so `ID` is allowed).
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'id',
  'created_at',
  'updated_at',
  'contact_id',
  'bot_id',
  '__proto__',
  'constructor',
  'prototype',
]);

/** the field shape: letters, digits, `-` and `_`, up to 255 characters. */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;
