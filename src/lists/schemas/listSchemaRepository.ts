import { and, asc, count, eq, isNull, lt, sql, type Placeholder } from 'drizzle-orm';
import type { Database } from '../../infra/db/client.js';
import { listSchemas, projects, type ListSchemaRow } from '../../infra/db/schema/index.js';
import { recordListChange } from '../../changes/recordLists.js';
import { keepLayout } from './listLayouts.js';

/** the limits: lists per project. */
export const MAX_LISTS_PER_PROJECT = 5000;

export async function findProject(db: Database, uuid: string) {
  const [row] = await db
    .select({ uuid: projects.uuid, ownerId: projects.ownerId })
    .from(projects)
    .where(eq(projects.uuid, uuid));
  return row;
}

/** The condition of `ownerId`'s live list: it exists and is not deleted. */
export const isOwnLiveList = (ownerId: number | Placeholder, id: string | Placeholder) =>
  and(eq(listSchemas.ownerId, ownerId), eq(listSchemas.id, id), isNull(listSchemas.deletedAt));

/** IDs we never issued (NUL cannot even be sent to Postgres) are simply not found. */
export function isLookupableId(id: string): boolean {
  return id.length > 0 && id.length <= 255 && !id.includes('\u0000');
}

/**
 * `ownerId`'s list that exists and is not deleted (the list states: a deleted list is gone at
 * once, even while its records are still being reclaimed).
 */
export async function findLiveList(
  db: Database,
  ownerId: number,
  id: string,
): Promise<ListSchemaRow | undefined> {
  if (!isLookupableId(id)) return undefined;
  const [row] = await db.select().from(listSchemas).where(isOwnLiveList(ownerId, id));
  return row;
}

/**
 * The owner of a list, deleted or not, whoever it is (getChanges reads a deleted list's
 * changes too). Fans out on Citus: asked only after the caller's own rows missed.
 */
export async function ownerOfAnyList(db: Database, id: string): Promise<number | undefined> {
  if (!isLookupableId(id)) return undefined;
  const [row] = await db
    .select({ ownerId: listSchemas.ownerId })
    .from(listSchemas)
    .where(eq(listSchemas.id, id));
  return row?.ownerId;
}

/** A live list whoever owns it (the operator's CLI names a list, not its owner). */
export async function findAnyLiveList(db: Database, id: string) {
  const ownerId = await ownerOfAnyList(db, id);
  return ownerId === undefined ? undefined : findLiveList(db, ownerId, id);
}

/** Whether `ownerId` has a list with the id, deleted or not. */
export async function hasAnyOwnList(db: Database, ownerId: number, id: string): Promise<boolean> {
  if (!isLookupableId(id)) return false;
  const rows = await db
    .select({ id: listSchemas.id })
    .from(listSchemas)
    .where(and(eq(listSchemas.ownerId, ownerId), eq(listSchemas.id, id)));
  return rows.length > 0;
}

export type NewList = Omit<ListSchemaRow, 'itemCount' | 'deletedAt' | 'version' | 'layout'>;

/**
 * Inserts a list, counts it against its project and records the change in one transaction. The conditional
 * increment takes the project row's lock, so concurrent creates cannot pass the cap
 * together (the limits). Undefined when the project is full.
 */
export async function insertList(db: Database, list: NewList): Promise<ListSchemaRow | undefined> {
  return db.transaction(async (tx) => {
    const counted = await tx
      .update(projects)
      .set({ listCount: sql`${projects.listCount} + 1` })
      .where(
        and(eq(projects.uuid, list.projectUuid), lt(projects.listCount, MAX_LISTS_PER_PROJECT)),
      )
      .returning({ listCount: projects.listCount });
    if (counted.length === 0) return undefined;
    const [row] = await tx.insert(listSchemas).values(list).returning();
    if (!row) return undefined;
    await keepLayout(tx, row);
    await recordListChange(tx, 'list_schema.created', row);
    return row;
  });
}

/** One page of the live lists of every project the account owns, oldest first (getListSchemas). */
export async function pageOwnedLists(
  db: Database,
  ownerId: number,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ rows: ListSchemaRow[]; total: number }> {
  const owned = and(eq(listSchemas.ownerId, ownerId), isNull(listSchemas.deletedAt));
  // Two connections at once: the page and the total (docs/records.md).
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(listSchemas)
      .where(owned)
      .orderBy(asc(listSchemas.createdAt), asc(listSchemas.id))
      .offset(offset)
      .limit(limit),
    db.select({ total: count() }).from(listSchemas).where(owned),
  ]);
  return { rows, total: Number(totals[0]?.total ?? 0) };
}

/**
 * Marks the list deleted, frees its place in the project's count and records the change. Its records become
 * unreachable at once (every record query requires a live list); reclaim.ts removes
 * them later. False when the list was already gone (a concurrent delete won).
 */
export async function softDeleteList(
  db: Database,
  ownerId: number,
  id: string,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(listSchemas)
      .set({ deletedAt: now })
      .where(isOwnLiveList(ownerId, id))
      .returning();
    if (!row) return false;
    await recordListChange(tx, 'list_schema.deleted', row);
    await tx
      .update(projects)
      .set({ listCount: sql`greatest(${projects.listCount} - 1, 0)` })
      .where(eq(projects.uuid, row.projectUuid));
    return true;
  });
}
