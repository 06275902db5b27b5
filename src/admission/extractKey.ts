import type { FastifyRequest } from 'fastify';

/**
 * The API key from `Authorization: Bearer`, else from `api_token` in the query or body
 * (the authentication rules). The header wins when both are present.
 */
export function extractApiKey(
  request: FastifyRequest,
  params: Record<string, unknown>,
): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  const token = params.api_token;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}
