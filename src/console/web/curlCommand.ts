/** One getListItems condition as the filter builder holds it. */
export interface FilterCondition {
  slug: string;
  op: string;
  value: string;
}

export interface GridQuery {
  page: number;
  limit: number;
  sort?: { slug: string; direction: 'asc' | 'desc' };
  filters: FilterCondition[];
}

/** A list opens at its first page of 50, in insertion order, unfiltered. */
export const INITIAL_GRID_QUERY: GridQuery = { page: 1, limit: 50, filters: [] };

/** The grid's state as getListItems parameters: `filters` maps a slug to `"<op>,<value>"`. */
export function listItemsParams(schemaId: string, query: GridQuery): Record<string, unknown> {
  const params: Record<string, unknown> = {
    schema_id: schemaId,
    page: query.page,
    limit: query.limit,
  };
  if (query.sort) params.order_by = `${query.sort.slug},${query.sort.direction}`;
  if (query.filters.length > 0) {
    params.filters = Object.fromEntries(query.filters.map((c) => [c.slug, `${c.op},${c.value}`]));
  }
  return params;
}

/** A word for a POSIX shell: single quotes, with a quote inside written as '\'' */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The same call as a GET with bracket notation: `--data-urlencode` encodes each value
 * (`%` as `%25`). The key stays a shell variable: the page never prints it.
 */
export function curlCommand(
  origin: string,
  method: string,
  params: Record<string, unknown>,
): string {
  const lines = [
    `curl -s -G ${shellQuote(`${origin}/api/v1/${method}`)}`,
    `-H "Authorization: Bearer $API_KEY" -H 'Accept: application/json'`,
  ];
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
        lines.push(`--data-urlencode ${shellQuote(`${name}[${key}]=${String(inner)}`)}`);
      }
    } else {
      lines.push(`--data-urlencode ${shellQuote(`${name}=${String(value)}`)}`);
    }
  }
  return lines.join(' \\\n  ');
}
