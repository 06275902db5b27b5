import type { Replica, ReplicaSet } from '../infra/db/replicas.js';
import type { LastWrites } from './lastWrites.js';

/**
 * Read replicas with the app's dependencies on each (built once), and the write positions.
 * `D` is the app's dependencies (AppDeps), a parameter so that this file needs nothing of them.
 */
export interface Replication<D> {
  replicas: ReplicaSet;
  lastWrites: LastWrites;
  depsOn(replica: Replica): D;
}
