import { z } from 'zod';
import type { MethodDoc } from '../methodDoc.js';
import { ListItem } from './listItems.js';
import { pageOf } from './paging.js';

/** A fresh object per method, so each response gets its own component name. */
const one = () => z.object({ data: ListItem });

export const listItemDocs: Record<string, MethodDoc> = {
  getListItems: {
    tag: 'List items',
    summary: 'Records of a list, filtered, sorted and paged',
    description: [
      'Spec 4.7. Set `order_by` (`<slug>,asc|desc`, also `created_at`, `updated_at`) when paging: without it the order is undefined.',
      '',
      '`filters` maps a field slug to a plain value (equality) or to `"<operator>,<value>"` with operators `=`, `!=`, `<>`, `<`, `<=`, `>`, `>=`, `like`, `not like`. In a query string: `filters[price]=>=,10`. Conditions are combined with AND; a condition on an unknown, encrypted, file or image field, or with a null value, is skipped.',
    ].join('\n'),
    changesData: false,
    success: [{ status: 200, description: 'A page of records', body: pageOf(ListItem) }],
  },
  addListItem: {
    tag: 'List items',
    summary: 'Add a record',
    description:
      'Spec 4.8. `data` maps field slugs to values; keys that are not fields are ignored. `422` (`data.<slug>`) for a missing required field or a wrong-type value.',
    changesData: true,
    success: [{ status: 201, description: 'The created record', body: one() }],
  },
  updateListItem: {
    tag: 'List items',
    summary: 'Change some fields of a record',
    description:
      'Spec 4.9. Fields absent from `data` are unchanged; null and empty values are skipped (a field cannot be cleared). `404` with `errors.item_id` when the record or its list is gone.',
    changesData: true,
    success: [{ status: 200, description: 'The whole record after the change', body: one() }],
  },
  deleteListItem: {
    tag: 'List items',
    summary: 'Delete a record',
    description: 'Spec 4.10. `404` when already deleted.',
    changesData: true,
    success: [{ status: 204, description: 'Deleted' }],
  },
};
