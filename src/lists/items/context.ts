import type { Caller } from '../../admission/caller.js';
import type { Database } from '../../infra/db/client.js';
import type { FieldCipher } from '../encryption/cipher.js';

/** What the record operations need from the app, passed in by the method handlers. */
export interface ItemContext {
  db: Database;
  cipher: FieldCipher;
  clock: () => Date;
  caller: Caller;
}
