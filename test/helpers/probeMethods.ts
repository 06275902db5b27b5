import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../src/app.js';
import type { AppDeps } from '../../src/appDeps.js';
import { queryRows } from '../../src/infra/db/client.js';
import { defineMethod, ok, type ApiMethod } from '../../src/methods/method.js';
import { methods } from '../../src/methods/methodRegistry.js';
import { boolParam, intParam, textParam } from '../../src/shared/paramTypes.js';

/**
 * Test-only methods that exercise the pipeline where no real method does yet: one echoes
 * its parsed parameters, one has many required fields (422s), one fails unexpectedly.
 */
const probe = {
  tag: 'Account',
  summary: 'Test-only probe method',
  changesData: false,
  success: [{ status: 200, description: 'What the probe answers' }],
  example: {},
} as const satisfies Partial<ApiMethod>;

export const echoParams = defineMethod({
  name: 'echoParams',
  ...probe,
  params: z.looseObject({
    page: intParam().optional(),
    flag: boolParam().optional(),
  }),
  async handle(params) {
    return ok({ data: params });
  },
});

export const strictParams = defineMethod({
  name: 'strictParams',
  ...probe,
  params: z.object({
    name: textParam(),
    count: intParam(),
    enabled: boolParam(),
    field: z.object({ slug: textParam(10), currency: z.string().length(3) }),
    fields: z.array(z.object({ slug: z.string().regex(/^[a-z]+$/, 'letters only') })).min(1),
  }),
  async handle(params) {
    return ok({ data: params });
  },
});

/** A real SQL error (no such table): the 500 must carry neither the SQL nor a stack. */
export const explode = defineMethod({
  name: 'explode',
  ...probe,
  params: z.object({}),
  async handle(_params, { deps }) {
    await queryRows(deps.db, sql`select secret_column from no_such_table_for_tests`);
    return ok({});
  },
});

export const probeRegistry: ReadonlyMap<string, ApiMethod> = new Map<string, ApiMethod>([
  ...methods,
  ...[echoParams, strictParams, explode].map((m) => [m.name, m] as [string, ApiMethod]),
]);

export interface ProbeApp {
  app: FastifyInstance;
  logs: string[];
}

/** A second app over the same dependencies, answering the probe methods too. */
export async function startProbeApp(deps: AppDeps): Promise<ProbeApp> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = buildApp(deps, { logStream, methods: probeRegistry });
  await app.ready();
  return { app, logs };
}

/**
 * The probe app of a test file, over the dependencies of its app `t` (started by an earlier
 * hook, e.g. testAppForFile): built before the file's tests, closed after them and before `t`.
 */
export function probeAppForFile(t: { deps: AppDeps }): ProbeApp {
  const file = {} as ProbeApp;
  beforeAll(async () => {
    Object.assign(file, await startProbeApp(t.deps));
  });
  afterAll(async () => {
    if (file.app) await file.app.close();
  });
  return file;
}
