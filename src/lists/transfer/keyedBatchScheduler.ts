/**
 * Runs batches with at most `limit` in flight, and never two that share a key at once: a
 * batch waits while one in flight holds any of its keys, so two batches never both insert
 * one key, and a key's later batch finds what its earlier one wrote. The first failure
 * stops the schedule: `submit` and `drain` throw it.
 */
export class KeyedBatchScheduler {
  /** the batches running, with their keys */
  private readonly inFlight = new Map<Promise<void>, ReadonlySet<string>>();
  private failure: unknown;

  constructor(private readonly limit: number) {}

  /** Waits for a free slot and for the batch's keys, then starts `run` (not awaiting it). */
  async submit(keys: ReadonlySet<string>, run: () => Promise<void>): Promise<void> {
    while (this.inFlight.size >= this.limit || this.sharesAKey(keys)) {
      await Promise.race(this.inFlight.keys());
    }
    if (this.failure) throw this.failure;
    const job: Promise<void> = run()
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => this.inFlight.delete(job));
    this.inFlight.set(job, keys);
  }

  /** Waits for every batch in flight; throws the first failure. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.keys());
    if (this.failure) throw this.failure;
  }

  private sharesAKey(keys: ReadonlySet<string>): boolean {
    return [...this.inFlight.values()].some((held) => [...keys].some((k) => held.has(k)));
  }
}
