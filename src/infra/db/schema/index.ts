export * from './accounts.js';
export * from './projects.js';
export * from './bots.js';
export * from './listSchemas.js';
export * from './listItems.js';
export * from './listFieldErasures.js';
export * from './contacts.js';
export * from './idempotencyKeys.js';
