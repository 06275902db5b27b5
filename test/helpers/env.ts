/** Where the test services are: the machine's defaults unless overridden. */

/**
 * With TEST_CITUS_URL (the coordinator of `scripts/citus/cluster.sh`, e.g.
 * postgres://postgres@127.0.0.1:5440/postgres) every test database is a Citus database: made
 * on the coordinator and on both workers (the next two ports, cluster.sh's layout), and
 * migrated there, so the migrations distribute the tables (docs/scaling.md).
 */
export const TEST_CITUS_URL = process.env.TEST_CITUS_URL || undefined;

export const TEST_POSTGRES_URL =
  TEST_CITUS_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function databaseUrl(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The admin URL of every node a test database lives on: the server, or the Citus nodes. */
export function serverUrls(): string[] {
  if (!TEST_CITUS_URL) return [TEST_POSTGRES_URL];
  const base = Number(new URL(TEST_CITUS_URL).port || 5432);
  return [0, 1, 2].map((i) => {
    const url = new URL(TEST_CITUS_URL);
    url.port = String(base + i);
    return url.toString();
  });
}
