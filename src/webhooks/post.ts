import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './addressPolicy.js';
import { checkedLookup, ForbiddenAddressError } from './safeLookup.js';

/** The most of a receiver's answer that is read: enough to log why it refused. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PostResult {
  ok: boolean;
  /** why not, in a line: the status and the start of the answer, or the network error */
  error?: string;
}

/**
 * POSTs `body` to `url` and says whether the receiver took it (a 2xx within `timeoutMs`).
 * Connects only to addresses checked when resolved (safeLookup.ts); never follows a
 * redirect (a 3xx is a failure); reads at most 64 KB of the answer.
 */
export function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  { timeoutMs, allowPrivate }: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    // node:http calls `lookup` only for names: an address in the URL is checked here
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivate && isIP(literal) && isForbiddenAddress(literal)) {
      resolve({ ok: false, error: new ForbiddenAddressError(literal).message });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (result: PostResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Listkeeper-Webhooks/1',
        },
        lookup: checkedLookup(allowPrivate) as never,
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 200).replace(/\s+/g, ' ');
          if (status >= 200 && status < 300) done({ ok: true });
          else if (status >= 300 && status < 400)
            done({ ok: false, error: `${status}: redirects are not followed` });
          else done({ ok: false, error: `${status}${text ? `: ${text}` : ''}` });
        };
        response.on('data', (chunk: Buffer) => {
          if (size >= MAX_ANSWER_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
          size += chunk.length;
          if (size >= MAX_ANSWER_BYTES) {
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', (err) => done({ ok: false, error: describe(err) }));
        // after `end` this changes nothing; before it, the answer was cut off
        response.on('close', () => done({ ok: false, error: 'the answer was cut off' }));
      },
    );
    request.on('error', (err) => done({ ok: false, error: describe(err) }));
    request.end(body);
  });
}

function describe(err: Error & { code?: string }): string {
  if (err.name === 'AbortError' || err.name === 'TimeoutError')
    return 'no answer within the timeout';
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
