/**
 * One line for any thrown value. Connection failures to `localhost` arrive as an
 * AggregateError with an empty message (one error per address tried), and drizzle wraps
 * driver errors in "Failed query: …" with the reason in `cause`.
 */
export function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) {
    return [...new Set(err.errors.map(describeError))].join('; ');
  }
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause && /^Failed query/.test(err.message)) return describeError(cause);
    const code = (err as { code?: unknown }).code;
    const text = err.message || (typeof code === 'string' ? code : err.name);
    return text.split('\n')[0] ?? text;
  }
  return String(err);
}
