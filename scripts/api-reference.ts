/** Writes docs/api.md from the OpenAPI document (`npm run docs:api`). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { methods } from '../src/methods/methodRegistry.js';
import { buildOpenApiDocument } from '../src/openapi/document.js';
import { renderApiReference } from '../src/openapi/apiReference.js';

export const API_REFERENCE = path.resolve(import.meta.dirname, '../docs/api.md');

/** The reference as the current code renders it; the base URL does not appear in it. */
export function currentApiReference(): string {
  const doc = buildOpenApiDocument({ methods: methods.values(), baseUrl: 'http://localhost:3000' });
  return renderApiReference(doc);
}

if (process.argv[1] === import.meta.filename) {
  writeFileSync(API_REFERENCE, currentApiReference());
  console.log(`wrote ${path.relative(process.cwd(), API_REFERENCE)}`);
}
