import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { ApiMethod } from '../methods/method.js';
import { buildOpenApiDocument, type OpenApiDocument } from './document.js';

export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * GET /api/v1/openapi.json, public. A static route: find-my-way matches it before the
 * parametric `/api/v1/:method`, so no method can be named `openapi.json` (none could: not a name).
 */
export function registerOpenApiRoute(
  app: FastifyInstance,
  deps: AppDeps,
  methods: ReadonlyMap<string, ApiMethod>,
): OpenApiDocument {
  // Built once: the registry is fixed for the life of the process.
  const document = buildOpenApiDocument({
    methods: methods.values(),
    baseUrl: deps.config.baseUrl,
  });
  const body = JSON.stringify(document);
  app.get(OPENAPI_PATH, async (_request, reply) =>
    reply.header('content-type', 'application/json; charset=utf-8').send(body),
  );
  return document;
}
