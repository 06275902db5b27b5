import type { FastifyBaseLogger } from 'fastify';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppDeps } from '../appDeps.js';
import type { Caller } from '../admission/caller.js';

export interface MethodContext {
  caller: Caller;
  deps: AppDeps;
  log: FastifyBaseLogger;
  /**
   * With an Idempotency-Key, for a method that `writesKeyWithChange`: the statement that stores
   * its answer, to be run in the same statement as the change (src/idempotency/).
   */
  keyClaim?: KeyClaim;
}

/** Renders a method's answer and gives the SQL that stores it beside the change. */
export interface KeyClaim {
  /** a data-modifying CTE over `inserted` (the written row): no separate transaction needed */
  statement(result: MethodResult): SQL;
}

/** What a method answers: a status and a JSON body (none for 204). */
export interface MethodResult {
  status: 200 | 201 | 204;
  body?: unknown;
}

/** The OpenAPI document's groups, in the order it lists them. */
export const TAGS = [
  'Account',
  'List schemas',
  'List items',
  'Contacts',
  'Changes',
  'Webhooks',
] as const;
export type Tag = (typeof TAGS)[number];

/** One success answer of a method, as the OpenAPI document describes it. */
export interface SuccessResponse {
  status: MethodResult['status'];
  description: string;
  /** the body's shape; absent for 204 (no body) */
  body?: z.ZodType;
}

/** What the OpenAPI document and the pipeline know of a method besides its handler. */
interface MethodDescription<S extends z.ZodType> {
  /** the exact name in `/api/v1/<name>` */
  name: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** methods that change data are called with POST */
  changesData: boolean;
  /**
   * The change is one statement that can also store an Idempotency-Key's answer (through
   * `ctx.keyClaim`): a keyed call then needs no transaction of its own.
   */
  writesKeyWithChange?: boolean;
  /**
   * A read-only method that must not read from a replica, and why (docs/scaling.md): without
   * it, a read-only method may be served by a replica that has replayed the caller's writes.
   */
  primaryOnly?: string;
  success: SuccessResponse[];
  /** the parameters: the schema the pipeline (or the handler itself) validates with */
  params: S;
  /** one working set of parameters, shown in the document and the API reference */
  example: Record<string, unknown>;
}

/** A method whose parameters the pipeline validates before calling the handler. */
interface PipelineValidated<S extends z.ZodType> extends MethodDescription<S> {
  validatesOwnParams?: false;
  handle(params: z.output<S>, ctx: MethodContext): Promise<MethodResult>;
}

/**
 * A method whose handler validates `params` itself, because some checks need the database
 * (whether the bot exists, whether a slug is taken) and must land in the same 422 as the
 * others. The pipeline hands it the request's parameters as they came.
 */
interface HandlerValidated<S extends z.ZodType> extends MethodDescription<S> {
  validatesOwnParams: true;
  handle(params: Record<string, unknown>, ctx: MethodContext): Promise<MethodResult>;
}

export type ApiMethod<S extends z.ZodType = z.ZodType> = PipelineValidated<S> | HandlerValidated<S>;

/** Declares a method; the generic keeps the handler's parameter type tied to its schema. */
export function defineMethod<S extends z.ZodType>(method: ApiMethod<S>): ApiMethod<S> {
  return method;
}

export const ok = (body: unknown): MethodResult => ({ status: 200, body });
export const created = (body: unknown): MethodResult => ({ status: 201, body });
export const noContent = (): MethodResult => ({ status: 204 });
