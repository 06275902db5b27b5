import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing: the secret is `whsec_` + base64 of 24 random bytes; a message is
 * signed as `v1,` + base64 HMAC-SHA256, keyed with the secret's bytes, of
 * `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}
