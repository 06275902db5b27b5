/**
 * An in-memory getListItems, written straight from getListItems and the documented decisions
 * (docs/records.md), sharing no code with src/. It works on records as the API renders
 * them (the list item shape), so it checks the whole path: codecs, slots, SQL and presentation.
 */
export interface RefField {
  slug: string;
  type: string;
  encrypted: boolean;
}

export type RefRecord = Record<string, unknown> & {
  id: string;
  created_at: string;
  updated_at: string;
};

export interface RefQuery {
  filters?: unknown;
  order_by?: string;
  limit: number;
  page: number;
  contact_id?: number;
  bot_id?: number;
}

export type RefAnswer =
  { status: 200; ids: string[]; total: number } | { status: 422; keys: string[] };

const OPERATORS = ['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'not like'];
const ORDERED = ['=', '!=', '<>', '<', '<=', '>', '>='];
const ALLOWED: Record<string, string[]> = {
  string: OPERATORS,
  number: ORDERED,
  money: ORDERED,
  bool: ['=', '!=', '<>'],
  date: ORDERED,
  datetime: ORDERED,
  contact: ORDERED,
  bot: ORDERED,
};
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Code point order, as the database collation (C.UTF-8) sorts text. */
export function compareText(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Exact decimal comparison through scaled BigInts. */
function toScaled(text: string): { n: bigint; scale: number } {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text)!;
  const digits = `${m[2] ?? ''}${m[3] ?? ''}` || '0';
  let scale = (m[3] ?? '').length - Number(m[4] ?? 0);
  let n = BigInt(digits);
  if (scale < 0) {
    n *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { n: m[1] === '-' ? -n : n, scale };
}

export function compareDecimal(a: string, b: string): number {
  const x = toScaled(a);
  const y = toScaled(b);
  const scale = Math.max(x.scale, y.scale);
  const xa = x.n * 10n ** BigInt(scale - x.scale);
  const ya = y.n * 10n ** BigInt(scale - y.scale);
  return xa < ya ? -1 : xa > ya ? 1 : 0;
}

function validDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function instantOf(text: string): number | undefined {
  const local = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2})$/.exec(text);
  const iso = local ? `${local[1]}T${local[2]}:00Z` : text;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(iso))
    return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The operand in a comparable form, or undefined when it does not suit the type (422). */
function operandFor(type: string, raw: string | number | boolean): unknown {
  switch (type) {
    case 'string':
      return typeof raw === 'boolean' ? undefined : String(raw);
    case 'number': {
      if (typeof raw === 'boolean') return undefined;
      if (typeof raw === 'string' && !NUMERIC.test(raw)) return undefined;
      const n = Number(raw);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'money':
      if (typeof raw === 'boolean') return undefined;
      if (typeof raw === 'number') return Number.isFinite(raw) ? String(raw) : undefined;
      return NUMERIC.test(raw) ? raw : undefined;
    case 'bool':
      if ([true, 'true', 1, '1'].includes(raw)) return true;
      if ([false, 'false', 0, '0'].includes(raw)) return false;
      return undefined;
    case 'date':
      return typeof raw === 'string' && validDay(raw) ? raw : undefined;
    case 'datetime':
      return typeof raw === 'string' ? instantOf(raw) : undefined;
    default: {
      const n = typeof raw === 'string' && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
      return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
    }
  }
}

/** Sign of (record value − operand) for ordered types. */
function compareValue(type: string, value: unknown, operand: unknown): number {
  switch (type) {
    case 'string':
      return compareText(value as string, operand as string);
    case 'money':
      return compareDecimal(String(value), operand as string);
    case 'bool':
      return Number(value) - Number(operand);
    case 'date':
      return compareText((value as string).slice(0, 10), operand as string);
    case 'datetime':
      return Math.sign(Date.parse(value as string) - (operand as number));
    default:
      return Math.sign((value as number) - (operand as number));
  }
}

/** Order of two rendered values of one field (getListItems order_by: typed). */
function compareStored(type: string, x: unknown, y: unknown): number {
  switch (type) {
    case 'string':
    case 'date':
    case 'datetime':
      // ISO 8601 UTC strings of one format sort chronologically as text
      return compareText(x as string, y as string);
    case 'money':
      return compareDecimal(String(x), String(y));
    default:
      return Math.sign(Number(x) - Number(y));
  }
}

function likeMatches(value: string, pattern: string): boolean {
  const lower = (s: string) =>
    Array.from(s, (c) => (c.toLowerCase().length === 1 ? c.toLowerCase() : c)).join('');
  const body = Array.from(lower(pattern), (c) =>
    c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
  ).join('');
  return new RegExp(`^${body}$`, 'su').test(lower(value));
}

type Predicate = (r: RefRecord) => boolean;

function condition(field: RefField, op: string, operand: unknown): Predicate {
  return (r) => {
    const v = r[field.slug];
    // A record with no value never matches a condition on that field (docs/records.md).
    if (v === null || v === undefined) return false;
    if (op === 'like') return likeMatches(v as string, operand as string);
    if (op === 'not like') return !likeMatches(v as string, operand as string);
    const c = compareValue(field.type, v, operand);
    return {
      '=': c === 0,
      '!=': c !== 0,
      '<>': c !== 0,
      '<': c < 0,
      '<=': c <= 0,
      '>': c > 0,
      '>=': c >= 0,
    }[op]!;
  };
}

function parseFilters(fields: RefField[], filters: unknown, errors: Set<string>): Predicate[] {
  if (filters === undefined || filters === null || filters === '') return [];
  if (typeof filters !== 'object' || Array.isArray(filters)) {
    errors.add('filters');
    return [];
  }
  const out: Predicate[] = [];
  for (const [slug, value] of Object.entries(filters as Record<string, unknown>)) {
    const field = fields.find((f) => f.slug === slug);
    if (!field || field.encrypted || field.type === 'file' || field.type === 'image') continue;
    if (value === null || value === undefined || value === '') continue;
    if (typeof value === 'object') {
      errors.add(`filters.${slug}`);
      continue;
    }
    let op = '=';
    let raw = value as string | number | boolean;
    if (typeof value === 'string') {
      const comma = value.indexOf(',');
      if (comma >= 0 && OPERATORS.includes(value.slice(0, comma))) {
        op = value.slice(0, comma);
        raw = value.slice(comma + 1);
      }
    }
    if (!ALLOWED[field.type]!.includes(op)) {
      errors.add(`filters.${slug}`);
      continue;
    }
    if (op === 'like' || op === 'not like') {
      const pattern = String(raw);
      const runs = pattern.match(/%+/g)?.length ?? 0;
      if (Array.from(pattern).length > 255 || runs > 10) {
        errors.add(`filters.${slug}`);
        continue;
      }
    }
    const operand = operandFor(field.type, raw);
    if (operand === undefined) errors.add(`filters.${slug}`);
    else out.push(condition(field, op, operand));
  }
  return out;
}

type Comparator = (a: RefRecord, b: RefRecord) => number;

function parseOrder(
  fields: RefField[],
  orderBy: string | undefined,
  errors: Set<string>,
): Comparator {
  const byId = (a: RefRecord, b: RefRecord) => compareText(a.id, b.id);
  if (orderBy === undefined || orderBy === '')
    return (a, b) => compareText(a.created_at, b.created_at) || byId(a, b);
  const parts = orderBy.split(',').map((p) => p.trim());
  const [slug = '', dir = 'asc'] = parts;
  const sign = dir.toLowerCase() === 'desc' ? -1 : 1;
  const field = fields.find((f) => f.slug === slug);
  const sortable = field && !field.encrypted && field.type !== 'file' && field.type !== 'image';
  const meta = slug === 'created_at' || slug === 'updated_at';
  if (parts.length > 2 || !['asc', 'desc'].includes(dir.toLowerCase()) || (!meta && !sortable)) {
    errors.add('order_by');
    return byId;
  }
  if (meta)
    return (a, b) => sign * (compareText(a[slug] as string, b[slug] as string) || byId(a, b));
  return (a, b) => {
    const x = a[field!.slug];
    const y = b[field!.slug];
    // missing values last in both directions, in insertion order (created_at, id);
    // ties between values broken by id; both in the sort's direction
    if ((x === null) !== (y === null)) return x === null ? 1 : -1;
    if (x === null) return sign * (compareText(a.created_at, b.created_at) || byId(a, b));
    return sign * (compareStored(field!.type, x, y) || byId(a, b));
  };
}

function linkedTo(fields: RefField[], type: 'contact' | 'bot', id: number): Predicate {
  const linking = fields.filter((f) => f.type === type && !f.encrypted);
  return (r) => linking.some((f) => r[f.slug] === id);
}

export function evaluate(fields: RefField[], records: RefRecord[], q: RefQuery): RefAnswer {
  const errors = new Set<string>();
  const predicates = parseFilters(fields, q.filters, errors);
  const order = parseOrder(fields, q.order_by, errors);
  if (errors.size > 0) return { status: 422, keys: [...errors].sort() };
  if (q.contact_id !== undefined) predicates.push(linkedTo(fields, 'contact', q.contact_id));
  if (q.bot_id !== undefined) predicates.push(linkedTo(fields, 'bot', q.bot_id));
  const matching = records.filter((r) => predicates.every((p) => p(r))).sort(order);
  const start = (q.page - 1) * q.limit;
  return {
    status: 200,
    ids: matching.slice(start, start + q.limit).map((r) => r.id),
    total: matching.length,
  };
}
