import { ForbiddenAddressError, resolveHost } from './safeLookup.js';

export const MAX_URL_LENGTH = 2048;

/**
 * The addresses `urlProblem` takes, as far as text can tell (the DNS answer decides the
 * rest), for the OpenAPI document: http(s), a host with no user name or password before it.
 * Narrower than the URL parser in what it lets through (ASCII host names, no empty host).
 */
export const WEBHOOK_URL_PATTERN =
  '^[Hh][Tt][Tt][Pp][Ss]?://(?:[A-Za-z0-9._~-]+|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]{1,5})?(?:[/?#]\\S*)?$';

/**
 * Why `text` cannot be a webhook's address, or undefined when it can: an absolute http(s)
 * URL without credentials whose host resolves only to addresses webhooks may reach.
 */
export async function urlProblem(text: string, allowPrivate: boolean): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'must be an absolute http or https URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  try {
    await resolveHost(url.hostname, allowPrivate);
  } catch (err) {
    if (err instanceof ForbiddenAddressError) {
      return 'must not point to a private, loopback, link-local or metadata address';
    }
    return 'names a host that does not resolve';
  }
  return undefined;
}
