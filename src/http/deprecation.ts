import { errors } from './httpErrors.js';

/**
 * The versioning rules driven by DEPRECATED_METHODS: before the sunset date the method answers as usual
 * with `Deprecation: true` and `Sunset: <HTTP-date>`; from that date on it answers 410.
 */
export function deprecationHeaders(
  sunsets: Record<string, Date>,
  method: string,
  now: Date,
): Record<string, string> {
  const sunset = Object.hasOwn(sunsets, method) ? sunsets[method] : undefined;
  if (!sunset) return {};
  if (now.getTime() >= sunset.getTime()) throw errors.methodRemoved(method);
  return { deprecation: 'true', sunset: sunset.toUTCString() };
}
