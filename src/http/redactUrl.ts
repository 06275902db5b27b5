/**
 * The request URL with every api_token value and every value of the caller's data masked,
 * for logs (the key must never be logged). Parameter names are compared the way qs reads them (percent-decoded, `+` as a
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
      if (eq < 0 || !isSecretName(pair.slice(0, eq))) return pair;
      return `${pair.slice(0, eq)}=[redacted]`;
    })
    .join('&');
}

/**
 * Parameters whose values are the caller's data: record values and filters on them,
 * contact phones, emails, names, addresses, tags and messenger IDs (none of
 * these in a log). Ids, paging and order_by stay readable.
 */
const DATA_PARAMS =
  /^(data|filters|phone|email|name|address|tags|telegram_id|telegram_username|max_id|max_user_id|max_username|vk_id|vk_user_id|viber_id)$/i;

function isSecretName(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // a malformed escape: qs keeps such a name as it is, so compare it as it is
  }
  return /api_token/i.test(name) || DATA_PARAMS.test(name.split('[')[0]!.trim());
}
