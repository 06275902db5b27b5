/**
 * Loaded into the service's process (`node --import ./dist-bench/bench/servers/citusRemoteLog.js
 * dist/main.js`) by `npm run bench:citus`: every Postgres connection of the process turns on
 * `citus.log_remote_commands`, and the coordinator then tells it, as a notice, of each
 * command it sends to a node ("issuing …", detail "on server …"). The node of each such
 * notice is appended as a line to CITUS_REMOTE_LOG. With one request at a time, the lines a
 * request added name the nodes it touched (test/integration/tenantStatements.test.ts reads
 * the same notices in a test).
 */
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const out = process.env.CITUS_REMOTE_LOG;
if (!out) throw new Error('CITUS_REMOTE_LOG names the file the nodes are written to');
type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const query = pg.Client.prototype.query as unknown as Query;
const logging = new WeakSet<pg.Client>();
(pg.Client.prototype as unknown as { query: Query }).query = function (...args) {
  if (!logging.has(this)) {
    logging.add(this);
    this.on('notice', (n: { message?: string; detail?: string }) => {
      const node = /on server (\S+)/.exec(n.detail ?? '')?.[1];
      if (node && /^issuing /.test(n.message ?? '')) appendFileSync(out, `${node}\n`);
    });
    void query.call(this, 'set citus.log_remote_commands = on');
  }
  return query.apply(this, args);
};
