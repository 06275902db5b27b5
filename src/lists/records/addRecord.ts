import type { OrderedObject } from '../../http/orderedJson.js';
import type { RecordContext } from './context.js';
import { requireOwnList } from './listLookup.js';
import { presentRecord } from './presenter.js';
import { checkReferences } from './references.js';
import { FieldsChanged, insertRecord } from './recordWrites.js';
import { toStoredChanges } from './storedRow.js';
import { validateData } from './validateData.js';

/** A field change racing the insert is retried against the new fields this many times. */
const ATTEMPTS = 3;

/** spec 4.8: validate against the list's fields, check linked contacts and bots, insert. */
export async function addRecord(
  ctx: RecordContext,
  schemaId: string,
  data: Record<string, unknown>,
): Promise<OrderedObject> {
  for (let attempt = 1; ; attempt++) {
    const list = await requireOwnList(ctx.db, ctx.caller, schemaId);
    const values = validateData(list.fields, data, 'add');
    await checkReferences(ctx.db, ctx.caller, list.fields, values);
    const changes = toStoredChanges(list.fields, values, ctx.cipher);
    try {
      const row = await insertRecord(ctx.db, list.id, list.fields, changes, ctx.clock());
      return presentRecord(list.fields, row, ctx.cipher);
    } catch (err) {
      if (!(err instanceof FieldsChanged) || attempt >= ATTEMPTS) throw err;
    }
  }
}
