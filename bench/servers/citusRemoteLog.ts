/**
 * Loaded into the service's process (`node --import ./dist-bench/bench/servers/citusRemoteLog.js
 * dist/main.js`) by `npm run bench:citus`: every Postgres connection of the process turns on
 * `citus.log_remote_commands`, and the coordinator then tells it, as a notice ("issuing …",
 * detail "on server …"), of each command it sends to a node. The node and the command's start
 * are appended as a line (node, tab, command) to CITUS_REMOTE_LOG — only for statements an HTTP request sent, not the
 * background jobs' (webhook polling writes a reference table, so it reaches every node). With
 * one request at a time, the lines a request added are the commands it caused
 * (test/integration/tenantStatements.test.ts reads the same notices in a test).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';

const out = process.env.CITUS_REMOTE_LOG;
if (!out) throw new Error('CITUS_REMOTE_LOG names the file the nodes are written to');

/** set while the server handles a request (Fastify's handler runs inside `emit('request')`) */
const inRequest = new AsyncLocalStorage<true>();
const emit = http.Server.prototype.emit as (this: http.Server, ...args: unknown[]) => boolean;
(http.Server.prototype as unknown as { emit: typeof emit }).emit = function (event, ...rest) {
  if (event === 'request') return inRequest.run(true, () => emit.call(this, event, ...rest));
  return emit.call(this, event, ...rest);
};

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const query = pg.Client.prototype.query as unknown as Query;
const logging = new WeakSet<pg.Client>();
/** whether each client's current statement came from a request (a client runs one at a time) */
const fromRequest = new WeakMap<pg.Client, boolean>();
(pg.Client.prototype as unknown as { query: Query }).query = function (...args) {
  if (!logging.has(this)) {
    logging.add(this);
    this.on('notice', (n: { message?: string; detail?: string }) => {
      const node = /on server (\S+)/.exec(n.detail ?? '')?.[1];
      const command = /^issuing (.*)$/s.exec(n.message ?? '')?.[1];
      if (node && command && fromRequest.get(this))
        appendFileSync(out, `${node}\t${command.replace(/\s+/g, ' ').slice(0, 300)}\n`);
    });
    void query.call(this, 'set citus.log_remote_commands = on');
  }
  fromRequest.set(this, inRequest.getStore() === true);
  return query.apply(this, args);
};
