import type { MethodName } from './generated/methods.js';
import type { components, paths } from './generated/openapi.js';

/** Every method is also reachable with GET; the client always POSTs JSON (spec 1 rule 2). */
type Operation<M extends MethodName> = paths[`/${M}`]['post'];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type At<R, K extends number> = K extends keyof R ? JsonOf<R[K]> : never;

/** The parameters of a method, as its own zod schema accepts them (JSON types). */
export type ParamsOf<M extends MethodName> =
  Operation<M> extends { requestBody?: { content: { 'application/json': infer P } } }
    ? P
    : Record<string, never>;

type Responses<M extends MethodName> = Operation<M>['responses'];

/** What a method answers on success: the 200 or 201 body, `undefined` for 204. */
export type ResultOf<M extends MethodName> =
  At<Responses<M>, 200> | At<Responses<M>, 201> | At<Responses<M>, 204>;

/** Parameters may be left out when none is required. */
export type ArgsOf<M extends MethodName> =
  Record<string, never> extends ParamsOf<M>
    ? [params?: ParamsOf<M>]
    : object extends ParamsOf<M>
      ? [params?: ParamsOf<M>]
      : [params: ParamsOf<M>];

export type Schemas = components['schemas'];
/** Spec 2.1 */
export type ListSchema = Schemas['ListSchema'];
/** Spec 2.3 */
export type ListItem = Schemas['ListItem'];
/** Spec 2.4 */
export type Contact = Schemas['Contact'];
