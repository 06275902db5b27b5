import type { ParamsOf, ResultOf } from './types.js';

type Caller = <M extends 'getListSchemas' | 'getListItems' | 'getContacts'>(
  method: M,
  params: ParamsOf<M>,
) => Promise<ResultOf<M>>;

/** Page mode (spec 2.5): page 1, 2, … until `links.next` is null, resending the other parameters. */
export async function* walkPages<M extends 'getListSchemas' | 'getListItems' | 'getContacts'>(
  call: Caller,
  method: M,
  params: ParamsOf<M>,
): AsyncGenerator<ItemOf<M>> {
  for (let page = 1; ; page++) {
    const pageParams = { ...(params as object), page } as ParamsOf<M>;
    const body = (await call(method, pageParams)) as unknown as PageBody<ItemOf<M>>;
    yield* body.data;
    if (!body.links || body.links.next === null || body.data.length === 0) return;
  }
}

/**
 * getContacts offset mode (spec 4.11 rule 3): complete when a slice is shorter than
 * `limit` or `offset + limit` reaches `meta.total`.
 */
export async function* walkOffsets(
  call: Caller,
  params: Omit<ParamsOf<'getContacts'>, 'limit' | 'offset'> & { limit?: number; offset?: number },
): AsyncGenerator<ItemOf<'getContacts'>> {
  const limit = params.limit ?? 1000;
  for (let offset = params.offset ?? 0; ; offset += limit) {
    const body = (await call('getContacts', { ...params, offset, limit })) as unknown as {
      data: ItemOf<'getContacts'>[];
      meta: { total: number };
    };
    yield* body.data;
    if (body.data.length < limit || offset + limit >= body.meta.total) return;
  }
}

interface PageBody<T> {
  data: T[];
  links?: { next: string | null };
}

/** The element type of a paged method's `data`. */
export type ItemOf<M extends 'getListSchemas' | 'getListItems' | 'getContacts'> =
  ResultOf<M> extends { data: (infer T)[] } ? T : never;
