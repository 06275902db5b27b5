import type { FieldDefinition } from './consoleTypes.js';

/** `2026-11-25T01:55:11.064Z` → `2026-11-25 01:55:11 UTC`: instants are shown in UTC. */
export function formatInstant(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(value);
  return match ? `${match[1]} ${match[2]} UTC` : value;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat('en', {
        style: 'currency',
        currency,
        currencyDisplay: 'code',
      });
    } catch {
      format = new Intl.NumberFormat('en', { maximumFractionDigits: 20 });
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

function fileText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  const file = value as { name?: unknown; url?: unknown };
  return typeof file.name === 'string' && file.name !== '' ? file.name : String(file.url ?? '');
}

/**
 * A record's value as the text of a grid cell, per the field's type. Always text: the
 * grid puts it in a text node, so markup in a value shows as the characters it is.
 */
export function formatValue(
  value: unknown,
  field: Pick<FieldDefinition, 'type' | 'currency'>,
): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'money':
      return typeof value === 'number'
        ? moneyFormat(field.currency ?? 'USD').format(value)
        : String(value);
    case 'bool':
      return value === true ? 'yes' : value === false ? 'no' : String(value);
    case 'date':
      return typeof value === 'string' ? value.slice(0, 10) : String(value);
    case 'datetime':
      return formatInstant(value);
    case 'contact':
      return `contact #${String(value)}`;
    case 'bot':
      return `bot #${String(value)}`;
    case 'file':
    case 'image':
      return fileText(value);
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** The link of a file or image value, only when it is a web address (never `javascript:`). */
export function webUrlOf(value: unknown): string | undefined {
  const url =
    typeof value === 'object' && value !== null ? (value as { url?: unknown }).url : undefined;
  if (typeof url !== 'string') return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** A record's value as the text an edit box starts with, in the format the API accepts back. */
export function editText(value: unknown, type: string): string {
  if (value === null || value === undefined) return '';
  if (type === 'date' && typeof value === 'string') return value.slice(0, 10);
  if ((type === 'file' || type === 'image') && typeof value === 'object') {
    return String((value as { url?: unknown }).url ?? '');
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
