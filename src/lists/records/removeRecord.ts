import { errors } from '../../http/errors.js';
import type { RecordContext } from './context.js';
import { requireOwnRecord } from './recordLookup.js';
import { deleteRecord } from './recordWrites.js';

/** spec 4.10: 404 when missing or already deleted, 403 for another account's record. */
export async function removeRecord(ctx: RecordContext, itemId: string): Promise<void> {
  await requireOwnRecord(ctx.db, ctx.caller, itemId);
  if (!(await deleteRecord(ctx.db, itemId))) throw errors.itemNotFound();
}
