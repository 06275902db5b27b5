import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import { registerConsole } from '../console/consoleRoutes.js';
import { registerMetrics } from '../metrics/register.js';
import { methods as registry } from '../methods/methodRegistry.js';
import { registerOpenApiRoute } from '../openapi/route.js';
import { registerDocsPage } from './docsPage.js';

/** The routes around the API: its OpenAPI document, the docs page, the console and the metrics. */
export function registerDeveloperRoutes(app: FastifyInstance, deps: AppDeps): void {
  const document = registerOpenApiRoute(app, deps, registry);
  registerDocsPage(app, document);
  registerConsole(app);
  registerMetrics(app, deps, registry);
}
