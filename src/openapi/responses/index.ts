import type { MethodDoc } from '../methodDoc.js';
import { accountDocs } from './accountMethods.js';
import { contactDocs } from './contactMethods.js';
import { listItemDocs } from './listItemMethods.js';
import { listSchemaDocs } from './listSchemaMethods.js';

/** Response documentation of every method, by its exact name (a test requires one per registered method). */
export const methodDocs: Readonly<Record<string, MethodDoc>> = {
  ...accountDocs,
  ...listSchemaDocs,
  ...listItemDocs,
  ...contactDocs,
};

export function docFor(name: string): MethodDoc | undefined {
  return Object.hasOwn(methodDocs, name) ? methodDocs[name] : undefined;
}
