import { z } from 'zod';

/** `a, b,,c` → `['a', 'b', 'c']`; unset → `[]` */
const commaList = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

export const postgresUrl = z.string().regex(POSTGRES_URL, 'must be a postgres:// URL');

export const postgresUrlList = z
  .string()
  .optional()
  .transform(commaList)
  .pipe(z.array(z.string().regex(POSTGRES_URL, 'must be postgres:// URLs')));

export const redisUrl = z
  .string()
  .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL');

/** An absolute http(s) URL, without a trailing slash. */
export const httpUrl = z
  .string()
  .url('must be an absolute URL')
  .regex(/^https?:\/\//i, 'must be an http:// or https:// URL')
  .transform((url) => url.replace(/\/+$/, ''));

export const text = z.string().min(1);

/** A whole number from `min` (to `max`, when given); every way to miss it answers `message`. */
export function wholeNumber(message: string, min: number, max?: number) {
  const from = z.coerce.number({ error: message }).int(message).min(min, message);
  return max === undefined ? from : from.max(max, message);
}

/** A number, fractions allowed, within [min, max]. */
export function decimal(message: string, min: number, max: number) {
  return z.coerce.number({ error: message }).min(min, message).max(max, message);
}

export const port = wholeNumber('must be a port number (0-65535)', 0, 65535);

/** `on` → true, `off` → false */
export const onOff = z
  .enum(['on', 'off'], { error: 'must be on or off' })
  .transform((v) => v === 'on');

/** `true` → true, `false` → false */
export const trueFalse = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .transform((v) => v === 'true');

/** how the placement step runs on Citus (src/infra/db/citusDistribution.ts) */
export const citusDistributionMode = z.enum(['transaction', 'online'], {
  error: 'must be transaction or online',
});

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const encryptionKey = z
  .string()
  .refine((s) => Buffer.from(s, 'base64').length === 32, 'must be 32 bytes, base64-encoded');

export const encryptionKeyList = z
  .string()
  .optional()
  .transform(commaList)
  .pipe(z.array(encryptionKey));

/**
 * `true` (believe every hop), `false`, or the proxies to believe: addresses, CIDRs or
 * proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`), separated by commas.
 * False: the TCP peer is the client and X-Forwarded-For is ignored (it is easily forged).
 */
export const trustProxy = z.string().transform((text, ctx): boolean | string[] => {
  const value = text.trim();
  if (value === 'true' || value === 'false') return value === 'true';
  const proxies = value.split(',').map((a) => a.trim());
  // IPv4 dotted quads or IPv6 (with a colon), optionally as CIDRs; hop counts are not
  // accepted (Fastify ignores them, failing closed).
  const known =
    /^((\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?|[0-9a-fA-F.]*:[0-9a-fA-F.:]*(\/\d{1,3})?|loopback|linklocal|uniquelocal)$/;
  if (proxies.every((a) => known.test(a))) return proxies;
  ctx.addIssue({
    code: 'custom',
    message: 'must be true, false, or proxy addresses/CIDRs separated by commas',
  });
  return z.NEVER;
});

const sunsetDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'dates must be YYYY-MM-DD')
  // Date.parse rolls 2025-02-30 over to March; only a date that reads back unchanged is real.
  .refine((s) => {
    const day = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === s;
  }, 'not a real date');

/** Method names are identifiers (the API conventions); anything else is a typo or worse (`__proto__`). */
const methodName = z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'keys must be method names');

/** A JSON object of method names to sunset days → each method's first day (UTC midnight). */
export const deprecatedMethods = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (text === undefined) return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
  })
  .pipe(
    z.record(methodName, sunsetDate, {
      error: 'must be a JSON object of method names to YYYY-MM-DD dates',
    }),
  )
  .transform((days) => {
    const sunsets: Record<string, Date> = {};
    for (const [method, day] of Object.entries(days))
      sunsets[method] = new Date(`${day}T00:00:00Z`);
    return sunsets;
  });
