/**
 * Every kind of change the feed records, as `<entity>.<what happened>`. Names are part of
 * the API (getChanges' `types`, webhooks), so they are only ever added to.
 */
export const CHANGE_TYPES = [
  'list_schema.created',
  'list_schema.deleted',
  'list_schema.field_added',
  'list_schema.field_deleted',
  'list_item.created',
  'list_item.updated',
  'list_item.deleted',
  'contact.created',
  'contact.updated',
] as const;

export type ChangeType = (typeof CHANGE_TYPES)[number];
