import { METHODS } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchDocument, responseChecker } from '../helpers/openapiConformance.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * Raw HTTP to a real listening server: `inject` and fetch refuse or rewrite some verbs and
 * skip Node's own limits, and the point is what the server does with the bytes.
 */
const t = testAppForFile({ listen: true });

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function rawRequest(verb: string, path: string, body = ''): Promise<RawAnswer> {
  const { hostname, port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `${verb} ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: application/json\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', rest = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [
          l.slice(0, l.indexOf(':')).toLowerCase(),
          l.slice(l.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest });
    });
  });
}

const OTHER_VERBS = METHODS.filter((m) => !['GET', 'HEAD', 'POST'].includes(m));

describe('verbs other than GET, HEAD and POST on a method path', () => {
  it('covers the verbs of the issue', () => {
    expect(OTHER_VERBS).toEqual(
      expect.arrayContaining(['QUERY', 'SEARCH', 'PROPFIND', 'PURGE', 'CONNECT']),
    );
  });

  it.each(OTHER_VERBS)(
    '%s answers 405 JSON with Allow, before the key or the body',
    async (verb) => {
      for (const path of ['/api/v1/getMe', '/api/v1/noSuchMethod?x=1']) {
        // a body that is not JSON: the answer comes before anything reads it
        const res = await rawRequest(verb, path, '{not json');
        expect(res.status, `${verb} ${path}`).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD, POST');
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(res.body)).toEqual({
          error: 'method_not_allowed',
          message: `The ${verb} method is not supported here. Supported methods: GET, HEAD, POST.`,
        });
      }
    },
  );

  it('leaves other paths to the 404 and GET to the method', async () => {
    expect((await rawRequest('PURGE', '/no/such/path')).status).toBe(404);
    expect((await rawRequest('CONNECT', 'example.com:443')).status).toBe(404);
    expect((await rawRequest('PURGE', '/api/v1/getMe/extra')).status).toBe(404);
    expect((await rawRequest('GET', '/api/v1/getMe')).status).toBe(401);
  });
});

describe('a request line over Node’s header limit', () => {
  it('answers 431 with the body the document states for it', async () => {
    const doc = await fetchDocument(t.app);
    const ids = Array.from({ length: 200 }, (_, i) => `item_ids=${'x'.repeat(80)}${i}`).join('&');
    const res = await rawRequest('GET', `/api/v1/deleteListItems?schema_id=a&${ids}`);
    expect(res.status).toBe(431);
    expect(
      responseChecker(doc)('deleteListItems', { status: 431, body: JSON.parse(res.body) }),
    ).toEqual([]);
  });
});
