import { accept, reject, type FieldType, type Parsed, type StoredValue } from './fieldType.js';
import { charLength, isStorableText } from './text.js';

const MAX_URL = 2048;

interface StoredFile {
  url: string;
  storage: string;
  name: string;
  type: string;
}

function optionalText(value: unknown, max: number): Parsed<string | undefined> {
  if (value === undefined || value === null || value === '') return accept(undefined);
  if (typeof value !== 'string' || !isStorableText(value) || charLength(value) > max)
    return reject(`must be text of at most ${max} characters`);
  return accept(value);
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The last path segment of the URL, as a name for a file sent without one. */
function nameFromUrl(text: string): string {
  const last = new URL(text).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last).slice(0, 255);
  } catch {
    return last.slice(0, 255);
  }
}

function parseFile(input: unknown, defaultType: string): Parsed<StoredValue> {
  // A bare string is taken as the URL: `data[photo]=https://…` is the easy form in GET.
  const value = typeof input === 'string' ? { url: input } : input;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return reject('must be an object with a url');
  const given = value as Record<string, unknown>;
  const url = given.url;
  if (typeof url !== 'string' || url.length > MAX_URL || !isStorableText(url) || !isWebUrl(url))
    return reject(`must have a url: an http(s) address of at most ${MAX_URL} characters`);
  const storage = optionalText(given.storage, 64);
  const name = optionalText(given.name, 255);
  const type = optionalText(given.type, 64);
  for (const part of [storage, name, type]) if (!part.ok) return part;
  const stored: StoredFile = {
    url,
    // the list item shape: `url` is the storage kind when a link is given.
    storage: (storage.ok && storage.value) || 'url',
    name: (name.ok && name.value) || nameFromUrl(url),
    type: (type.ok && type.value) || defaultType,
  };
  return accept({ ...stored });
}

/**
 * The full file object of the list item shape. The service never fetches user URLs (docs/decisions.md), so
 * what only the file itself could tell (mime type, size, dimensions) is null, size 0.
 */
function renderFile(stored: unknown): unknown {
  const f = (stored ?? {}) as Partial<StoredFile>;
  return {
    type: f.type ?? null,
    mime_type: null,
    created_at: null,
    name: f.name ?? '',
    size: 0,
    storage: f.storage ?? 'url',
    caption: null,
    meta: { width: null, height: null, duration: null, codec: null },
    url: f.url ?? null,
  };
}

/**
 * `file` and `image`: a link with `url` (required), `storage`, `name`, `type` (the list item shape).
 * Never filtered (getListItems) nor sorted, so no filter support and no slot.
 */
export function makeFileType(name: 'file' | 'image'): FieldType {
  return {
    name,
    parse: (input) => parseFile(input, name),
    toSlot: () => {
      throw new Error(`${name} values have no slot`);
    },
    fromSlot: () => {
      throw new Error(`${name} values have no slot`);
    },
    render: renderFile,
  };
}
