/**
 * The API handlers still running, whether or not their client is still connected. A client
 * that gives up closes its socket, and the HTTP server stops counting the request, but the
 * handler goes on: closing the app (SIGTERM) without waiting for it would end the database
 * pool under it, and its next statement would fail ("Cannot use a pool after calling end").
 */
export class HandlersInFlight {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  async run<T>(handler: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await handler();
    } finally {
      this.running--;
      if (this.running === 0) for (const resolve of this.waiting.splice(0)) resolve();
    }
  }

  /** Resolves once no handler runs. */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
