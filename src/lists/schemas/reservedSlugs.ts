/**
 * Slugs a field may not take (spec 2.2 "reserved service names"; contract/decisions.md).
 * The first five are the keys a record carries at its top level (spec 2.3), so a field
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

/** spec 2.2: letters, digits, `-` and `_`, up to 255 characters. */
export const SLUG_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;
