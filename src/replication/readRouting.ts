import type { AppDeps } from '../appDeps.js';
import type { Admission } from '../admission/admission.js';
import type { Replica, ReplicaSet } from '../infra/db/replicas.js';
import { prepareListQueries } from '../lists/queries.js';
import type { MethodResult } from '../methods/method.js';
import { DomainError } from '../shared/domainErrors.js';
import { ApiError } from '../http/httpErrors.js';
import type { LastWrites } from './lastWrites.js';
import type { Replication } from './replication.js';

export function createReplication(
  deps: AppDeps,
  replicas: ReplicaSet,
  lastWrites: LastWrites,
): Replication<AppDeps> {
  const built = new Map<Replica, AppDeps>();
  for (const replica of replicas.replicas) {
    const db = replica.handle.db;
    // the caches are shared: their entries are keyed by list and paging versions, which
    // name the same data on every server; what is in flight is the server's own
    const lists = deps.lists;
    built.set(replica, {
      ...deps,
      db,
      pool: replica.handle.pool,
      lists: {
        ...lists,
        db,
        queries: prepareListQueries(db),
        readCache: lists.readCache.forAnotherServer(),
      },
    });
  }
  return { replicas, lastWrites, depsOn: (replica) => built.get(replica)! };
}

/**
 * A read-only method on a replica that has replayed the caller's last write, else on the
 * primary. The position comes from the request's Redis script (`admission.lastWrite`);
 * unknown (Redis did not answer) means the primary. A replica that fails the read is
 * skipped and the read runs again on the primary: a read changes nothing.
 */
export async function runRead(
  deps: AppDeps,
  admission: Admission,
  run: (deps: AppDeps) => Promise<MethodResult>,
): Promise<MethodResult> {
  const replication = deps.replication;
  if (!replication) return run(deps);
  const lastWrite = deps.redis
    ? admission.lastWrite
    : replication.lastWrites.ownPosition(admission.caller.accountId);
  if (lastWrite === undefined) return run(deps);
  const replica = replication.replicas.pick(lastWrite === '' ? undefined : lastWrite);
  if (!replica) return run(deps);
  try {
    const result = await run(replication.depsOn(replica));
    replica.state.reads++;
    return result;
  } catch (err) {
    // the caller's mistake is the same on every server
    if (err instanceof DomainError || err instanceof ApiError) throw err;
    replication.replicas.failed(replica, err);
    return run(deps);
  }
}
