/** The request URL with any api_token value masked, for logs (the key must never be logged). */
export function redactUrl(url: string): string {
  return url.replace(/((?:^|[?&])api_token=)[^&#]*/gi, '$1[redacted]');
}
