import { buildApp } from './app.js';
import { openMigratedDatabase } from './infra/db/open.js';
import { ensureDemoAccount } from './embedded/demoAccount.js';
import { hostname } from 'node:os';
import { startMaintenanceLoop, type MaintenanceLoop } from './maintenanceLoop.js';
import { startWebhookDelivery, type DeliveryWorker } from './webhooks/deliveryWorker.js';
import { createLogger } from './logger.js';
import { createRuntime } from './runtime.js';
import { loadConfigOrExit } from './startup.js';

/** The process: config, database and migrations, listen, graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.logLevel);
  const database = await openMigratedDatabase(config, log);

  if (database.kind === 'pglite') {
    const demo = await ensureDemoAccount(database.db, config.dataDir);
    if (demo) {
      process.stdout.write(
        [
          '',
          'Embedded database created with a demo Pro account:',
          `  API key:      ${demo.api_key}`,
          `  project UUID: ${demo.project_uuid}`,
          `  bot ID:       ${demo.bot_id}`,
          `  (saved in ${config.dataDir}/demo-account.json)`,
          '',
        ].join('\n') + '\n',
      );
    }
  }

  const runtime = createRuntime(config, database, log);
  const app = buildApp(runtime.deps);

  let maintenance: MaintenanceLoop | undefined;
  let delivery: DeliveryWorker | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    // app.close() waits for every open connection. A keep-alive connection whose request
    // finishes after the signal would hold it until the keep-alive timeout, so connections
    // are closed as soon as they fall idle.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    sweep.unref();
    try {
      await app.close();
      clearInterval(sweep);
      await Promise.all([maintenance?.stop(), delivery?.stop()]);
      await runtime.close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  // Records of deleted lists, values of deleted fields and expired idempotency keys are
  // removed in the background.
  if (!closing) {
    maintenance = startMaintenanceLoop(runtime.deps.db, log, {
      changesRetentionDays: runtime.deps.config.changesRetentionDays,
      analyzeGrown: database.kind === 'pglite',
    });
    const { deps } = runtime;
    delivery = startWebhookDelivery(
      { ...deps.lists, db: deps.db, clock: deps.clock, stats: deps.webhookStats },
      log,
      {
        instance: `${hostname()}:${process.pid}`,
        allowPrivate: config.webhooks.allowPrivate,
        leaseMs: config.webhooks.leaseSeconds * 1000,
      },
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `listkeeper: failed to start: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
