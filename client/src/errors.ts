/**
 * A non-2xx answer. Rely on `status`, `code` and `errors`, not on the message texts
 * (spec 7: texts may change).
 */
export class ListkeeperError extends Error {
  override readonly name = 'ListkeeperError';
  /** `code` of the body (`pro_required`, `method_removed`), else its `error` (`unauthorized`, `not_found` …) */
  readonly code: string | undefined;
  /** 422: parameter path (`fields.0.slug`) → messages; 404 of lists and records: `schema_id` / `item_id` */
  readonly errors: Record<string, string[]>;

  constructor(
    readonly status: number,
    readonly method: string,
    readonly body: unknown,
  ) {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const text =
      typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : '';
    super(`${method} answered ${status}${text ? `: ${text}` : ''}`);
    this.code =
      typeof b.code === 'string' ? b.code : typeof b.error === 'string' ? b.error : undefined;
    this.errors = isErrorMap(b.errors) ? b.errors : {};
  }
}

function isErrorMap(v: unknown): v is Record<string, string[]> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
