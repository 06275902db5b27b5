import pino, { stdSerializers, type Logger, type SerializedError } from 'pino';

/** Process-level logger (start-up, shutdown, CLI); requests log through Fastify's child loggers. */
export function createLogger(level: string, destination: 1 | 2 = 1): Logger {
  return pino({ level, serializers: { err: serializeError } }, pino.destination(destination));
}

/**
 * pino's error serializer without the values a failed query was given: drizzle puts every
 * bound parameter (phones, emails, record values, ciphertexts) into the message, the stack
 * and a `params` property, and Postgres' `detail` repeats conflicting values. The SQL text
 * and the SQLSTATE stay, so the cause is still clear.
 */
export function serializeError(err: Error): SerializedError {
  const out = stdSerializers.err(err);
  if (typeof out !== 'object' || out === null) return out;
  delete out.params;
  delete out.detail;
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const params = (e as { params?: unknown }).params;
    if (Array.isArray(params) && params.length > 0) {
      // drizzle writes `params: ${params}`, i.e. String(params)
      const text = `\nparams: ${String(params)}`;
      for (const key of ['message', 'stack'] as const) {
        const value: unknown = out[key];
        if (typeof value === 'string') out[key] = value.split(text).join('\nparams: [redacted]');
      }
    }
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}
