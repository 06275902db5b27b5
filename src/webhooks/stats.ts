/** What delivery attempts ended in. */
export type DeliveryOutcome = 'delivered' | 'failed' | 'disabled';

/**
 * Delivery figures of this process, for /metrics: attempts by outcome, and per webhook the
 * time of the oldest change it holds undelivered (its lag).
 */
export class WebhookStats {
  readonly outcomes: Record<DeliveryOutcome, number> = { delivered: 0, failed: 0, disabled: 0 };
  private readonly waiting = new Map<string, Date>();

  count(outcome: DeliveryOutcome) {
    this.outcomes[outcome]++;
  }

  /** `since`: the oldest undelivered change of the webhook; undefined when none is. */
  lag(webhookId: string, since: Date | undefined) {
    if (since) this.waiting.set(webhookId, since);
    else this.waiting.delete(webhookId);
  }

  /** Seconds since the oldest change any webhook of this process still has to deliver. */
  oldestUndeliveredSeconds(now: Date): number {
    let oldest = now.getTime();
    for (const since of this.waiting.values()) oldest = Math.min(oldest, since.getTime());
    return (now.getTime() - oldest) / 1000;
  }
}
