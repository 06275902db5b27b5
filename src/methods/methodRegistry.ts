import type { ApiMethod } from './method.js';
import { getMe } from './getMe.js';
import { getListSchemas } from './getListSchemas.js';
import { getListSchema } from './getListSchema.js';
import { createListSchema } from './createListSchema.js';
import { deleteListSchema } from './deleteListSchema.js';
import { addListSchemaField } from './addListSchemaField.js';
import { deleteListSchemaField } from './deleteListSchemaField.js';
import { addListItem } from './addListItem.js';
import { addListItems } from './addListItems.js';
import { deleteListItems } from './deleteListItems.js';
import { updateListItems } from './updateListItems.js';
import { createOrUpdateContacts } from './createOrUpdateContacts.js';
import { deleteListItem } from './deleteListItem.js';
import { getListItems } from './getListItems.js';
import { updateListItem } from './updateListItem.js';
import { getContacts } from './getContacts.js';
import { getNumberOfContacts } from './getNumberOfContacts.js';
import { createOrUpdateContact } from './createOrUpdateContact.js';
import { getChanges } from './getChanges.js';
import { createWebhook } from './createWebhook.js';
import { getWebhooks } from './getWebhooks.js';
import { deleteWebhook } from './deleteWebhook.js';

/** Every method the API answers, by its exact name (the API conventions). */
const all: ApiMethod[] = [
  getMe,
  getContacts,
  getNumberOfContacts,
  createOrUpdateContact,
  createOrUpdateContacts,
  getListItems,
  addListItem,
  addListItems,
  updateListItems,
  deleteListItems,
  updateListItem,
  deleteListItem,
  getListSchemas,
  getListSchema,
  createListSchema,
  deleteListSchema,
  addListSchemaField,
  deleteListSchemaField,
  getChanges,
  createWebhook,
  getWebhooks,
  deleteWebhook,
];

export const methods: ReadonlyMap<string, ApiMethod> = new Map(all.map((m) => [m.name, m]));
