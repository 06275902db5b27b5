/** The shapes of the API's answers the console reads (docs/api.md, Resources). */
export interface Account {
  id: number;
  email: string;
  name: string;
  plan: string;
  created_at: string;
}

export interface FieldDefinition {
  name: string;
  type: string;
  currency?: string;
  is_required: boolean;
  is_hidden: boolean;
  is_encryptable: boolean;
}

export interface ListSchema {
  id: string;
  fields: Record<string, FieldDefinition>;
  name: string;
  bot_id: number | null;
  project: string;
  created_at: string;
  updated_at: string;
}

/** A field with its slug, in the schema's order. */
export interface SchemaField extends FieldDefinition {
  slug: string;
}

export type ListItem = Record<string, unknown> & {
  id: string;
  created_at: string;
  updated_at: string;
};

export interface PageMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  from: number | null;
  to: number | null;
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export interface Contact extends Record<string, unknown> {
  id: number;
  bot_id: number;
  name: string;
  messenger: string;
  phone: string | null;
  email: string | null;
  created_at: string;
  unsubscribed_at: string | null;
  tags: string[];
  variables: { id: number; name: string; value: string | null; type: number }[];
}

export interface Change {
  id: number;
  type: string;
  occurred_at: string;
  schema_id?: string;
  item_id?: string;
  bot_id?: number;
  contact_id?: number;
  data?: unknown;
}

export interface Webhook {
  id: string;
  url: string;
  types: string[];
  schema_id: string | null;
  bot_id: number | null;
  status: string;
  created_at: string;
  last_success_at: string | null;
  failing_since: string | null;
  last_error: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  secret?: string;
}

export function fieldsOf(schema: ListSchema): SchemaField[] {
  return Object.entries(schema.fields).map(([slug, field]) => ({ slug, ...field }));
}
