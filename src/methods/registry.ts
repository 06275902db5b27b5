import type { ApiMethod } from './method.js';
import { getMe } from './getMe.js';
import { getListSchemas } from './getListSchemas.js';
import { getListSchema } from './getListSchema.js';
import { createListSchema } from './createListSchema.js';
import { deleteListSchema } from './deleteListSchema.js';
import { addListSchemaField } from './addListSchemaField.js';
import { deleteListSchemaField } from './deleteListSchemaField.js';
import { addListItem } from './addListItem.js';
import { deleteListItem } from './deleteListItem.js';
import { getListItems } from './getListItems.js';
import { updateListItem } from './updateListItem.js';

/** Every method the API answers, by its exact name (spec 1). */
const all: ApiMethod[] = [
  getMe,
  getListSchemas,
  getListSchema,
  createListSchema,
  deleteListSchema,
  addListSchemaField,
  deleteListSchemaField,
  getListItems,
  addListItem,
  updateListItem,
  deleteListItem,
];

export const methods: ReadonlyMap<string, ApiMethod> = new Map(all.map((m) => [m.name, m]));
