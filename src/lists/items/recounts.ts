/** How a list slot's kept counts are taken again: brought forward, else counted anew. */
export interface Recount {
  /** brings the counts forward over the writes since; false where only a count can say */
  advance: () => Promise<boolean>;
  count: () => Promise<void>;
}

/**
 * The background work behind one kind of kept counts on this server, per list and slot (a
 * key): a read of the counts, and their recount when the read found them unusable or more
 * than `recountAfter` writes behind. One recount at a time a key; until it ends, reads that
 * found the counts unusable count directly rather than each paying for an advance over up to
 * MAX_CHANGES_TO_ADVANCE changes only to be refused.
 */
export class Recounts {
  private readonly counting = new Set<string>();
  private readonly behind = new Set<string>();

  constructor(
    private readonly recountAfter: number,
    /** told of a recount that failed: reads count directly meanwhile, so none of them fails */
    private readonly failed: (err: unknown, key: string) => void,
  ) {}

  /** `read`'s answer, or undefined where the counts are behind; recounts where needed. */
  async read<T extends { events: number }>(
    key: string,
    read: () => Promise<T | undefined>,
    recount: Recount,
  ): Promise<T | undefined> {
    if (this.behind.has(key)) {
      this.start(key, recount);
      return undefined;
    }
    const answer = await read();
    if (!answer) this.behind.add(key);
    if (!answer || answer.events > this.recountAfter) this.start(key, recount);
    return answer;
  }

  /** Once a recount ends, reads try the counts again (after a failure too: the next refusal starts another). */
  private start(key: string, { advance, count }: Recount) {
    if (this.counting.has(key)) return;
    this.counting.add(key);
    advance()
      .then(async (advanced) => {
        if (!advanced) await count();
      })
      .catch((err: unknown) => this.failed(err, key))
      .finally(() => {
        this.counting.delete(key);
        this.behind.delete(key);
      });
  }
}
