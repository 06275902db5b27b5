import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import { extractApiKey } from '../admission/extractKey.js';
import { answerOnce } from '../idempotency/answerOnce.js';
import { answerWithChange } from '../idempotency/answerWithChange.js';
import { IDEMPOTENCY_HEADER, takeIdempotencyKey } from '../idempotency/idempotencyKey.js';
import type { ApiMethod, MethodContext } from '../methods/method.js';
import { methods as registry } from '../methods/methodRegistry.js';
import { deprecationHeaders } from './deprecation.js';
import { errors } from './httpErrors.js';
import { queryParams } from './queryParser.js';
import { validateParams } from '../shared/validate.js';
import { runRead } from '../replication/readRouting.js';
import { HandlersInFlight } from './handlersInFlight.js';

/** `/api/v1/<one segment>`, with or without a query string: the paths the route below answers. */
const API_PATH = /^\/api\/v1\/[^/?#]+(?:\?|$)/;

/**
 * The one route: GET or POST /api/v1/<methodName>. The data's path, in order:
 * method lookup → deprecation → parameters → auth → rate limit → idempotency key →
 * validation → handler (inside the key's transaction when the method changes data; a read
 * on a replica that has replayed the caller's writes, when there are replicas).
 */
export function registerApiRoute(
  app: FastifyInstance,
  deps: AppDeps,
  methods: ReadonlyMap<string, ApiMethod> = registry,
): void {
  // Any other verb on an API path is told which ones work, before anything else is read
  // (its body included). A hook, not a route: the router knows only the verbs Fastify
  // supports, and the others (QUERY, PROPFIND, PURGE, …) would fall through to the 404.
  app.addHook('onRequest', (request, _reply, done) => {
    const verb = request.method;
    if (verb === 'GET' || verb === 'POST' || verb === 'HEAD' || !API_PATH.test(request.url)) {
      return done();
    }
    done(errors.methodNotAllowed(verb));
  });
  // CONNECT never reaches Fastify: Node hands it to a tunnel listener and, with none, drops
  // the connection. Its answer is written here, as the router would have given it.
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const answer = API_PATH.test(request.url ?? '')
      ? errors.methodNotAllowed('CONNECT')
      : errors.notFound();
    const body = JSON.stringify(answer.body);
    const head = [
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
      'connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
  // closing waits for every handler, those whose client has gone too (handlersInFlight.ts)
  const handlers = new HandlersInFlight();
  app.addHook('onClose', () => handlers.idle());
  app.route<{ Params: { method: string } }>({
    method: ['GET', 'POST'],
    url: '/api/v1/:method',
    handler: (request, reply) => handlers.run(() => answer(request, reply)),
  });

  async function answer(
    request: FastifyRequest<{ Params: { method: string } }>,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const method = methods.get(request.params.method);
    if (!method) throw errors.methodNotFound(request.params.method);
    reply.headers(deprecationHeaders(deps.config.deprecatedMethods, method.name, deps.clock()));

    const params = collectParams(request);
    // One step: with Redis, the key check and the count share one round trip.
    const admission = await deps.authenticate(extractApiKey(request, params), request.ip);
    const { caller, rate } = admission;
    delete params.api_token;

    reply.header('x-ratelimit-limit', String(rate.limit));
    reply.header('x-ratelimit-remaining', String(rate.remaining));
    if (!rate.allowed) throw errors.tooManyAttempts(rate.retryAfterSeconds, rate.limit);

    // Reads ignore a key: repeating them changes nothing.
    const key = takeIdempotencyKey(request.headers[IDEMPOTENCY_HEADER], params);
    const run = (runDeps: AppDeps) =>
      runMethod(method, params, { caller, deps: runDeps, log: request.log });
    if (!method.changesData) {
      const result = method.primaryOnly ? await run(deps) : await runRead(deps, admission, run);
      return send(reply, result.status, result.body);
    }
    // read replicas: later reads of this account wait for a replica that has replayed this
    const recordWrite = () => deps.replication?.lastWrites.record(caller.accountId);
    if (key === undefined) {
      const result = await run(deps);
      await recordWrite();
      return send(reply, result.status, result.body);
    }
    const keyed = { ownerId: caller.accountId, key, method: method.name, params };
    const answer = method.writesKeyWithChange
      ? await answerWithChange(deps, keyed, (keyClaim) =>
          runMethod(method, params, { caller, deps, log: request.log, keyClaim }),
        )
      : await answerOnce(deps, keyed, run);
    if (answer.replayed) reply.header('idempotent-replayed', 'true');
    else if (answer.status < 400) await recordWrite();
    reply.code(answer.status);
    if (answer.body === null) return reply.send();
    return reply.type('application/json; charset=utf-8').send(answer.body);
  }
}

/** Query string and body merged, the body winning (as Laravel's `$request->all()`). */
function collectParams(request: FastifyRequest): Record<string, unknown> {
  const query = queryParams(request.query);
  const body = request.body;
  // `null` too: only a JSON body can produce it, and it is not an object of parameters.
  if (body !== undefined && !isObject(body)) {
    throw errors.badRequest('The JSON body must be an object.');
  }
  return { ...query, ...(body ?? {}) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validation (unless the method validates its own parameters), then the handler. */
function runMethod(method: ApiMethod, params: Record<string, unknown>, ctx: MethodContext) {
  return method.validatesOwnParams
    ? method.handle(params, ctx)
    : method.handle(validateParams(method.params, params), ctx);
}

function send(reply: FastifyReply, status: number, body: unknown) {
  if (status === 204) return reply.code(204).send();
  return reply.code(status).send(body);
}
