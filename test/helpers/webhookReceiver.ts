import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** the answer to the next requests: a status, optionally after a delay */
  answer: { status: number; delayMs?: number; location?: string };
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (on `port`, or a free one) that records what it is sent. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: { status: 200 },
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const { status, delayMs = 0, location } = receiver.answer;
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(status, location ? { location } : {});
        res.end(status >= 400 ? 'receiver says no' : 'ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/**
 * Standard Webhooks verification, written from the specification on its own (not the
 * service's signing code): HMAC-SHA256 keyed with the base64 secret after `whsec_`, over
 * `<id>.<timestamp>.<body>`, base64, among the space-separated `v1,<signature>` entries.
 */
export function verifySignature(secret: string, message: Received): boolean {
  const id = String(message.headers['webhook-id']);
  const timestamp = String(message.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${message.body}`).digest();
  return String(message.headers['webhook-signature'])
    .split(' ')
    .some((entry) => {
      const [version, signature] = entry.split(',');
      if (version !== 'v1' || !signature) return false;
      const given = Buffer.from(signature, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
