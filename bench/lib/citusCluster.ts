/**
 * The bench's databases on a Citus cluster of scripts/citus/cluster.sh (a coordinator, its
 * workers on the next two ports): a database copied on the coordinator from one loaded there
 * before `citus` was placed, the same name made empty on the workers, then joined into a
 * cluster database — the path of an existing single-node database distributed in place.
 */
import { admin, databaseUrl } from './database.js';
import { loadSweepData } from './sweepData.js';

/** The admin URL of the coordinator and of each worker (cluster.sh's ports: base, +1, +2). */
export function clusterNodes(coordinatorUrl: string): string[] {
  const base = Number(new URL(coordinatorUrl).port || 5432);
  return [0, 1, 2].map((i) => {
    const url = new URL(coordinatorUrl);
    url.port = String(base + i);
    url.pathname = '/postgres';
    return url.toString();
  });
}

/**
 * `name` on every node: on the coordinator a copy of `template` (a plain database: no
 * `citus` in it yet), on the workers empty with `citus`. Answers the coordinator's URL.
 */
export async function copyOntoCluster(coordinatorUrl: string, template: string, name: string) {
  const [coordinator, ...workers] = clusterNodes(coordinatorUrl);
  await dropFromCluster(coordinatorUrl, name);
  await admin(coordinator!, `create database ${name} template ${template}`);
  for (const worker of workers) {
    await admin(worker, `create database ${name}`);
    await admin(databaseUrl(worker, name), 'create extension citus');
  }
  return databaseUrl(coordinator!, name);
}

/**
 * Makes the coordinator's database a cluster database: `citus` in it, the coordinator and
 * the workers in its metadata. Its tables stay where they are until the placement step runs.
 */
export async function joinCluster(url: string) {
  const [coordinator, ...workers] = clusterNodes(url).map((u) => new URL(u));
  await admin(url, 'create extension if not exists citus');
  await admin(
    url,
    `select citus_set_coordinator_host('${coordinator!.hostname}', ${coordinator!.port})`,
  );
  for (const worker of workers)
    await admin(url, `select citus_add_node('${worker.hostname}', ${worker.port})`);
}

export async function dropFromCluster(coordinatorUrl: string, name: string) {
  for (const node of clusterNodes(coordinatorUrl))
    await admin(node, `drop database if exists ${name} with (force)`);
}

/** Whether the database's tables are placed on the cluster already (list_items distributed). */
export async function isDistributed(url: string): Promise<boolean> {
  const { rows } = await admin(
    url,
    `select 1 from pg_extension e, pg_dist_partition p
     where e.extname = 'citus' and p.logicalrelid = 'list_items'::regclass`,
  ).catch(() => ({ rows: [] }));
  return rows.length > 0;
}

/**
 * The sweep's list of `records` loaded with the sweep's loader into a plain database on the
 * server of `adminUrl` (built once, then reused), without the plain twin, which the Citus
 * benchmarks do not use. On a coordinator it is the single-node database they distribute.
 */
export async function sweepListWithoutTwin(
  adminUrl: string,
  name: string,
  records: number,
  log: (line: string) => void,
) {
  const data = await loadSweepData([records], name, 0, log, { server: adminUrl });
  await admin(databaseUrl(adminUrl, name), `drop table if exists plain_${records}`);
  return data;
}
