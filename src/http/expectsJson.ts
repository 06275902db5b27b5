import type { FastifyRequest } from 'fastify';

/**
 * Who "expects JSON" (docs/decisions.md): an Accept header naming JSON, or
 * X-Requested-With: XMLHttpRequest as Laravel decides. Others get validation redirects.
 */
export function expectsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  if (/json/i.test(accept)) return true;
  return String(request.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest';
}
