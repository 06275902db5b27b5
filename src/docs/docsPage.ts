import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument } from '../openapi/document.js';

export const DOCS_PATH = '/docs';

/**
 * Everything the page loads comes from this server: the browser is told so (CSP), which
 * also keeps the page from calling any other host when someone tries a request.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Swagger UI sets style attributes from script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** GET /docs: Swagger UI, served from the npm package, rendering the OpenAPI document. */
export function registerDocsPage(app: FastifyInstance, document: OpenApiDocument): void {
  app.register(async (scope) => {
    // Static mode: the plugin serves our document as given and inspects no routes.
    await scope.register(swagger, {
      mode: 'static',
      specification: { document: document as never },
    });
    await scope.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      // Swagger UI's online validator badge would call another host.
      validatorUrl: null as unknown as string,
      theme: { title: 'Listkeeper API' },
      uiConfig: {
        docExpansion: 'list',
        deepLinking: true,
        tryItOutEnabled: true,
        persistAuthorization: false,
        displayRequestDuration: true,
      },
      uiHooks: {
        onRequest: (_request, reply, done) => {
          reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
          done();
        },
      },
    });
  });
}
