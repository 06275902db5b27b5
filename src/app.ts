import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { registerDeveloperRoutes } from './docs/developerRoutes.js';
import { registerApiRoute } from './http/apiRoute.js';
import { BODY_LIMIT_BYTES, createErrorHandler, handleFrameworkError } from './http/errorHandler.js';
import { errors } from './http/httpErrors.js';
import { serializeReply } from './shared/orderedJson.js';
import { parseParams, parseQueryForRouter } from './http/queryParser.js';
import { redactUrl } from './http/redactUrl.js';
import { serializeError } from './logger.js';
import { registerProbes } from './http/probes.js';
import type { AppDeps } from './appDeps.js';
import type { ApiMethod } from './methods/method.js';
import { onCitus } from './infra/db/engine.js';

export interface AppOptions {
  /** where logs go; defaults to stdout */
  logStream?: DestinationStream;
  /** the methods the API answers; defaults to the registry (tests add probe methods) */
  methods?: ReadonlyMap<string, ApiMethod>;
}

/** Builds the Fastify app; never listens (main.ts owns ports, signals and migrations). */
export function buildApp(deps: AppDeps, options: AppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: {
      level: deps.config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : {}),
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        // Fastify logs the whole URL; the api_token must never reach a log line.
        req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
        }),
        err: serializeError,
      },
    },
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { querystringParser: parseQueryForRouter },
    frameworkErrors: handleFrameworkError,
    trustProxy: deps.config.trustProxy,
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    forceCloseConnections: 'idle',
    // Requests that still arrive while closing get the catalog's 503 (hook below): Fastify's
    // own has no Retry-After, so clients would not retry on another instance.
    return503OnClosing: false,
  });

  // A Buffer where the answer was written piece by piece (orderedJson.ts); Fastify sends
  // strings and Buffers alike.
  app.setReplySerializer((payload) => serializeReply(payload) as string);
  app.setErrorHandler(createErrorHandler(deps.config.baseUrl));
  // No URL in the body or the log: it may carry an api_token.
  app.setNotFoundHandler((_request, reply) => {
    const notFound = errors.notFound();
    return reply.code(notFound.status).send(notFound.body);
  });

  app.register(formbody, {
    parser: (text: string) => parseParams(text),
    bodyLimit: BODY_LIMIT_BYTES,
  });
  const jsonParser = app.getDefaultJsonParser('remove', 'remove');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // An empty JSON body means "no parameters" (curl -X POST with the header but no data).
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    jsonParser(request, text, done);
  });

  // Whether the database runs Citus decides the form of some writes (infra/db/engine.ts): asked
  // before the first request, so no request pays for it. A database down now is asked again
  // by the first write.
  app.addHook('onReady', async () => {
    await onCitus(deps.db).catch(() => undefined);
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks on every request take callbacks, not async functions: no promise per request.
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? errors.unavailable(1) : undefined);
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', String(request.id));
    done(null, payload);
  });

  registerProbes(app, deps);
  registerDeveloperRoutes(app, deps);
  registerApiRoute(app, deps, options.methods);
  return app;
}
