import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { NewAccount } from '../../src/operator/operatorAccounts.js';
import { makeTenant, type Tenant } from './factories.js';
import { startTestApp, type TestApp, type TestAppOptions } from './testApp.js';

/** A rate limit no file of many calls reaches: the limit itself is tested on its own. */
export const MANY_CALLS = { RATE_LIMIT_PER_MINUTE: '100000' };

export interface FileAppOptions<Name extends string> extends TestAppOptions {
  /**
   * the tenants to make, in this order, each an account with one project and one bot; as
   * an object, each with the account's own fields (name, email, …)
   */
  tenants?: readonly Name[] | Readonly<Record<Name, Partial<NewAccount>>>;
  /** listen on a free port of 127.0.0.1 (`baseUrl`), for requests that must really overlap */
  listen?: boolean;
}

export type FileApp<Name extends string> = TestApp &
  Record<Name, Tenant> & {
    /** with `listen`: http://127.0.0.1:<port> */
    baseUrl: string;
  };

/**
 * The app a test file runs against: started with its tenants before the file's tests, closed
 * after them. The object is filled in by the file's first hook, so read it inside tests and
 * hooks only.
 */
export function testAppForFile<const Name extends string = never>(
  options: FileAppOptions<Name> = {},
): FileApp<Name> {
  const file = {} as FileApp<Name>;
  const { tenants = [], listen = false, ...appOptions } = options;
  const accounts: [string, Partial<NewAccount>][] = Array.isArray(tenants)
    ? tenants.map((name) => [name, {}])
    : Object.entries(tenants);
  beforeAll(async () => {
    const t = await startTestApp(appOptions);
    Object.assign(file, t);
    for (const [name, account] of accounts) {
      Object.assign(file, { [name]: await makeTenant(t.db, account) });
    }
    if (listen) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      file.baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }
  });
  afterAll(async () => {
    // a failed start leaves nothing to close, and its own error is the one to read
    if (file.close) await file.close();
  });
  return file;
}
