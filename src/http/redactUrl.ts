/**
 * The request URL with every api_token value masked, for logs (the key must never be
 * logged). Parameter names are compared the way qs reads them (percent-decoded, `+` as a
 * space), so `api%5Ftoken=` and `api_token[]=` are masked too; and anything shaped like
 * one of our keys is masked wherever it appears (a key pasted into the path, say).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const masked = q < 0 ? url : `${url.slice(0, q + 1)}${redactQuery(url.slice(q + 1))}`;
  return masked.replace(KEY_SHAPE, 'lk_[redacted]');
}

/** apiKeys.ts: `lk_` and 32 random bytes in base64url. */
const KEY_SHAPE = /lk_[A-Za-z0-9_-]{43}/g;

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0 || !isTokenName(pair.slice(0, eq))) return pair;
      return `${pair.slice(0, eq)}=[redacted]`;
    })
    .join('&');
}

function isTokenName(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // a malformed escape: qs keeps such a name as it is, so compare it as it is
  }
  return /api_token/i.test(name);
}
