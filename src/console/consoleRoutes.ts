import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadConsoleAssets, type ConsoleAsset, type ConsoleAssets } from './consoleAssets.js';

export const CONSOLE_PATH = '/console';

/**
 * The page runs only its own bundle and talks only to this server: no inline script or
 * style (every value the API returns is data, never markup), no other origin, no framing.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

function page(assets: ConsoleAssets): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Listkeeper console</title>
<link rel="stylesheet" href="${assets.style.url}">
<script type="module" src="${assets.script.url}"></script>
</head>
<body>
<div id="app"><noscript>The console needs JavaScript.</noscript></div>
</body>
</html>
`;
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Listkeeper console</title></head>
<body><p>The console has not been built: run <code>npm run build</code> and reload.</p></body></html>
`;

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset) {
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  reply
    .headers(SECURITY_HEADERS)
    .header('content-type', asset.contentType)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'accept-encoding');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? asset.gzipped : asset.body);
}

/** GET /console: the browser console, a page over the public API with the user's own key. */
export function registerConsole(app: FastifyInstance, bundleDir?: string): void {
  // Read on first use and kept: the bundle only changes with a build, which restarts nothing
  // while it is missing (a checkout before `npm run build`), so a miss is retried.
  let assets: ConsoleAssets | undefined;
  const current = () => (assets ??= loadConsoleAssets(bundleDir));

  const servePage = (_request: FastifyRequest, reply: FastifyReply) => {
    const built = current();
    reply
      .headers(SECURITY_HEADERS)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache');
    return built ? reply.send(page(built)) : reply.code(503).send(NOT_BUILT);
  };
  app.get(CONSOLE_PATH, servePage);
  app.get(`${CONSOLE_PATH}/`, servePage);
  app.get(`${CONSOLE_PATH}/assets/:file`, (request, reply) => {
    const built = current();
    const url = request.url.split('?')[0];
    const asset = built && [built.script, built.style].find((a) => a.url === url);
    if (!asset) return reply.code(404).headers(SECURITY_HEADERS).send({ error: 'not_found' });
    return sendAsset(request, reply, asset);
  });
}
