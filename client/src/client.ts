import { methodNames, type MethodName } from './generated/methods.js';
import { followChanges, type ChangesPage, type FollowOptions } from './changes.js';
import { walkOffsets, walkPages } from './pages.js';
import { createTransport, type TransportOptions } from './transport.js';
import type { ArgsOf, Contact, ListItem, ListSchema, ParamsOf, ResultOf } from './types.js';

export type ClientOptions = TransportOptions;

/** One typed function per API method, named exactly like it. */
export type MethodFunctions = {
  [M in MethodName]: (...args: ArgsOf<M>) => Promise<ResultOf<M>>;
};

export interface ListkeeperClient extends MethodFunctions {
  /** Any method by name (the functions above call this). */
  call<M extends MethodName>(method: M, ...args: ArgsOf<M>): Promise<ResultOf<M>>;
  /** Every list schema of every owned project, page after page (spec 4.1). */
  listSchemas(): AsyncGenerator<ListSchema>;
  /**
   * Every record of a list matching the filters, page after page (spec 4.7). Set
   * `order_by`: without it the order is undefined and pages may overlap.
   */
  listItems(params: Omit<ParamsOf<'getListItems'>, 'page'>): AsyncGenerator<ListItem>;
  /** Every contact in page mode, by ascending id (spec 4.11). */
  listContacts(
    params?: Omit<ParamsOf<'getContacts'>, 'page' | 'offset' | 'limit'>,
  ): AsyncGenerator<Contact>;
  /**
   * The offset export of contacts (spec 4.11 rule 3), `limit` per request (default 1000).
   * Cap it with `date_to` so it does not grow while it runs (rule 5).
   */
  exportContacts(
    params?: Omit<ParamsOf<'getContacts'>, 'page' | 'count' | 'limit' | 'offset'> & {
      limit?: number;
      offset?: number;
    },
  ): AsyncGenerator<Contact>;
  /**
   * The change feed from `since` (a saved `meta.next_cursor`; omitted: the oldest change
   * kept), one page at a time: apply its `data`, then save its `meta.next_cursor` to resume
   * from. Stops at the head, or with `follow` keeps polling until `signal` aborts.
   */
  changes(params?: ParamsOf<'getChanges'>, options?: FollowOptions): AsyncGenerator<ChangesPage>;
}

export function createClient(options: ClientOptions): ListkeeperClient {
  const send = createTransport(options);
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const call = <M extends MethodName>(method: M, ...args: ArgsOf<M>) =>
    send(method, args[0] ?? {}) as Promise<ResultOf<M>>;
  const paged = <M extends MethodName>(method: M, params: ParamsOf<M>) =>
    send(method, params) as Promise<ResultOf<M>>;

  const functions = Object.fromEntries(
    methodNames.map((name) => [name, (params?: unknown) => send(name, params ?? {})]),
  ) as MethodFunctions;

  return {
    ...functions,
    call,
    listSchemas: () => walkPages(paged, 'getListSchemas', {}),
    listItems: (params) => walkPages(paged, 'getListItems', params as ParamsOf<'getListItems'>),
    listContacts: (params = {}) => walkPages(paged, 'getContacts', params),
    exportContacts: (params = {}) => walkOffsets(paged, params),
    changes: (params = {}, options = {}) => followChanges(paged, params, options, sleep),
  };
}
