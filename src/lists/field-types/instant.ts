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
  const millis = postgresUtcMillis(text);
  if (millis !== undefined) return new Date(millis);
  return parseInstant(text) ?? new Date(text);
}

/**
 * Postgres's own text of an instant in a UTC session (`2024-05-01 10:20:00.123456+00`, every
 * record's created_at and updated_at) as milliseconds, read digit by digit; undefined for any
 * other form (another zone, BC, a year before 100), which parseInstant reads. Two of these on
 * every record of a page: through parseInstant's pattern they were 4 % of the server's time
 * on a first-time read (docs/benchmarks.md, "The deferred join without a join").
 */
export function postgresUtcMillis(text: string): number | undefined {
  const end = text.length - 3;
  // `YYYY-MM-DD HH:MM:SS`, then nothing or `.` and 1–6 digits, then `+00`
  if (end !== 19 && (end < 21 || end > 26)) return undefined;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if ((SEPARATORS >> i) & 1 ? c !== SEPARATOR_AT[i] : c < 48 || c > 57) return undefined;
  }
  if (text.charCodeAt(end) !== 43 || text.charCodeAt(end + 1) !== 48) return undefined;
  if (text.charCodeAt(end + 2) !== 48) return undefined;
  const digits = (at: number, count: number) => {
    let value = 0;
    for (let i = at; i < at + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
    return value;
  };
  const year = digits(0, 4);
  if (year < 100) return undefined; // Date.UTC reads 0–99 as 1900–1999
  // milliseconds: the fraction's first three digits, padded
  let ms = 0;
  for (let i = 20; i < 23; i++) ms = ms * 10 + (i < end ? text.charCodeAt(i) - 48 : 0);
  const month = digits(5, 2);
  const day = digits(8, 2);
  const hour = digits(11, 2);
  const minute = digits(14, 2);
  const second = digits(17, 2);
  if (!validDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** Bit i set where Postgres's text of an instant has a separator, not a digit, at i. */
const SEPARATORS = (1 << 4) | (1 << 7) | (1 << 10) | (1 << 13) | (1 << 16) | (1 << 19);
/** The separator each of those positions holds: `-`, `-`, space, `:`, `:`, `.` */
const SEPARATOR_AT: Record<number, number> = { 4: 45, 7: 45, 10: 32, 13: 58, 16: 58, 19: 46 };
