import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../appDeps.js';
import type { Caller } from '../admission/caller.js';

export interface MethodContext {
  caller: Caller;
  deps: AppDeps;
  log: FastifyBaseLogger;
}

/** What a method answers: a status and a JSON body (none for 204). */
export interface MethodResult {
  status: 200 | 201 | 204;
  body?: unknown;
}

export interface ApiMethod<S extends z.ZodType = z.ZodType> {
  name: string;
  params: S;
  handle(params: z.output<S>, ctx: MethodContext): Promise<MethodResult>;
}

/** Declares a method; the generic keeps the handler's parameter type tied to its schema. */
export function defineMethod<S extends z.ZodType>(method: ApiMethod<S>): ApiMethod<S> {
  return method;
}

export const ok = (body: unknown): MethodResult => ({ status: 200, body });
export const created = (body: unknown): MethodResult => ({ status: 201, body });
export const noContent = (): MethodResult => ({ status: 204 });
