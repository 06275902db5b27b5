import { startServer, type ServerProcess } from './processes.js';
import { startRedisServer, type RedisServer } from './redisServer.js';
import { TEST_ENCRYPTION_KEY } from './testApp.js';

export interface Fleet {
  servers: ServerProcess[];
  redis: RedisServer;
  stop(): Promise<void>;
}

/**
 * `count` server processes on one database and one throwaway Redis (each test file its
 * own, so rate-limit keys never meet another file's).
 */
export async function startFleet(
  databaseUrl: string,
  count: number,
  env: Record<string, string> = {},
  redis?: RedisServer,
): Promise<Fleet> {
  const ownRedis = redis ?? (await startRedisServer());
  const servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < count; i++) {
      servers.push(
        await startServer({
          DATABASE_URL: databaseUrl,
          ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
          REDIS_URL: ownRedis.url,
          ...env,
        }),
      );
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    if (!redis) await ownRedis.kill();
    throw err;
  }
  return {
    servers,
    redis: ownRedis,
    async stop() {
      await Promise.all(servers.map((s) => s.stop()));
      if (!redis) await ownRedis.kill();
    },
  };
}
