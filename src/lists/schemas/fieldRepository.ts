import { and, eq } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { listFieldErasures, listSchemas, type StoredField } from '../../infra/db/schema/index.js';
import { allocateSlot } from '../slots.js';
import type { NewField } from './fieldDefinition.js';
import { nextVersion } from '../listVersion.js';
import { recordListChange } from '../../changes/recordLists.js';
import { isOwnLiveList } from './listSchemaRepository.js';
import { keepLayout, NEXT_LAYOUT } from './listLayouts.js';

/** Fields a list may reach through addListSchemaField (only creation is capped at 30). */
export const MAX_FIELDS_PER_LIST = 200;

export type AppendResult = 'added' | 'missing' | 'duplicate' | 'erasing' | 'too_many';

/**
 * Appends a field at the end of the list (addListSchemaField). The list row is locked for the
 * whole check-and-write, so concurrent adds of one slug cannot both pass.
 */
export async function appendField(
  db: Database,
  ownerId: number,
  schemaId: string,
  field: NewField,
  now: Date,
): Promise<AppendResult> {
  return db.transaction(async (tx) => {
    const [list] = await tx
      .select({ fields: listSchemas.fields })
      .from(listSchemas)
      .where(isOwnLiveList(ownerId, schemaId))
      .for('update');
    if (!list) return 'missing';
    if (list.fields.some((f) => f.slug === field.slug)) return 'duplicate';
    if (list.fields.length >= MAX_FIELDS_PER_LIST) return 'too_many';

    const erasing = await tx
      .select({ slug: listFieldErasures.slug, slot: listFieldErasures.slot })
      .from(listFieldErasures)
      .where(and(eq(listFieldErasures.ownerId, ownerId), eq(listFieldErasures.schemaId, schemaId)));
    // Old values of this slug are still in records: adding it back would show them again.
    if (erasing.some((e) => e.slug === field.slug)) return 'erasing';
    // A slot being cleared still holds old values, so it is not free yet.
    const held = erasing.flatMap((e) => (e.slot ? [slotHolder(e.slot)] : []));
    const slot = allocateSlot(field, [...list.fields, ...held]);

    const [changed] = await tx
      .update(listSchemas)
      .set({
        fields: [...list.fields, slot ? { ...field, slot } : field],
        updatedAt: now,
        version: nextVersion,
        layout: NEXT_LAYOUT,
      })
      .where(and(eq(listSchemas.ownerId, ownerId), eq(listSchemas.id, schemaId)))
      .returning();
    await keepLayout(tx, changed!);
    await recordListChange(tx, 'list_schema.field_added', changed!);
    return 'added';
  });
}

/** A stand-in field occupying a slot (typed so contact_id / bot_id count as taken too). */
function slotHolder(slot: string): StoredField {
  const type = slot === 'contact_id' ? 'contact' : slot === 'bot_id' ? 'bot' : 'string';
  return {
    slug: '',
    name: '',
    type,
    slot,
    is_required: false,
    is_hidden: false,
    is_encryptable: false,
  };
}

export type RemoveResult =
  { removed: StoredField } | { removed?: undefined; reason: 'missing' | 'no_field' };

/**
 * Removes a field from the definition and records that its values must be erased, in
 * one transaction: the field is invisible from the commit on (deleteListSchemaField), and an erase
 * cut short is resumed from list_field_erasures.
 */
export async function removeField(
  db: Database,
  ownerId: number,
  schemaId: string,
  slug: string,
  now: Date,
): Promise<RemoveResult> {
  return db.transaction(async (tx) => {
    const [list] = await tx
      .select({ fields: listSchemas.fields })
      .from(listSchemas)
      .where(isOwnLiveList(ownerId, schemaId))
      .for('update');
    if (!list) return { reason: 'missing' };
    const removed = list.fields.find((f) => f.slug === slug);
    if (!removed) return { reason: 'no_field' };

    const [changed] = await tx
      .update(listSchemas)
      .set({
        fields: list.fields.filter((f) => f !== removed),
        updatedAt: now,
        version: nextVersion,
        layout: NEXT_LAYOUT,
      })
      .where(and(eq(listSchemas.ownerId, ownerId), eq(listSchemas.id, schemaId)))
      .returning();
    await keepLayout(tx, changed!);
    await recordListChange(tx, 'list_schema.field_deleted', changed!);
    await tx
      .insert(listFieldErasures)
      .values({ schemaId, slug, slot: removed.slot ?? null, ownerId });
    return { removed };
  });
}
