/**
 * Calendar text → UTC instants, for `date` and `datetime` (getListItems: `YYYY-MM-DD HH:MM`
 * or ISO 8601 with offset; no zone means UTC). Seconds and fractions are optional;
 * fractions finer than a millisecond are truncated. Years 0001–9999 only.
 */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDay(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= (DAYS_IN_MONTH[m - 1] ?? 0) + (m === 2 && isLeap(y) ? 1 : 0);
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function utc(y: number, m: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not move years 0–99 into the 1900s.
  date.setUTCFullYear(y, m - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

function offsetMinutes(zone: string | undefined): number | undefined {
  if (!zone || zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

function inRange(ms: number): Date | undefined {
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999 ? date : undefined;
}

/** `YYYY-MM-DD` → that day, midnight UTC. */
export function parseDay(text: string): Date | undefined {
  const m = DAY.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return validDay(y, mo, d) ? inRange(utc(y, mo, d)) : undefined;
}

/** A date, or a date and time with an optional zone (UTC when none) → the instant. */
export function parseInstant(text: string): Date | undefined {
  if (text.length > 40) return undefined;
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!validDay(y, mo, d)) return undefined;
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offset = offsetMinutes(m[8]);
  if (offset === undefined) return undefined;
  return inRange(utc(y, mo, d, h, mi, s, ms) - offset * 60_000);
}

/** The UTC day of an instant as `YYYY-MM-DD`. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Whether a time slot's text is already what toISOString writes (`2024-05-01T10:20:00.000Z`):
 * as a page reads its slots (items/itemSlots.ts, to_char in UTC), the one form of the year
 * range 1–9999 that the driver, JSON and Postgres's own text never give.
 */
export function isIsoUtc(text: string): boolean {
  return (
    text.length === 24 &&
    text.charCodeAt(10) === 84 && // T
    text.charCodeAt(19) === 46 && // .
    text.charCodeAt(23) === 90 // Z
  );
}

/**
 * A timestamptz as it comes back (a time slot, a record's timestamps): a Date from the
 * driver, or text — JSON's form (`2024-05-01T10:20:00+00:00`), or Postgres's own
 * (`2024-05-01 10:20:00+00`, a row returned whole). Not `new Date(text)` alone: V8 reads
 * Postgres's form of the year 1, `0001-01-01 00:00:00+00`, as 2001.
 */
export function instantOf(slot: unknown): Date {
  if (slot instanceof Date) return slot;
  const text = String(slot);
  // ISO 8601 with its `T` (JSON's form, a page's slots) the engine reads right, and fast: it
  // is on every date of every record a page renders
  if (text.charCodeAt(10) === 84) return new Date(text);
  return parseInstant(text) ?? new Date(text);
}
