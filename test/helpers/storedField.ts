import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';

/** A field as a list's schema stores it: named by its slug, optional, visible, in clear. */
export const storedField = (
  slug: string,
  type: string,
  extra: Partial<StoredField> = {},
): StoredField => ({
  slug,
  name: slug,
  type,
  is_required: false,
  is_hidden: false,
  is_encryptable: false,
  ...extra,
});
