/** The first retry waits about this long; each later one twice the one before. */
const FIRST_MS = 1_000;
/** No wait is longer: a receiver back after an outage is found within the hour. */
const LONGEST_MS = 3_600_000;
/** A webhook that has failed for this long is disabled. */
export const GIVE_UP_AFTER_MS = 24 * 3_600_000;

/**
 * The wait before retry `attempt` (1 = the first retry): exponential, capped, with jitter
 * (between half and all of it), so receivers recovering from an outage are not hit by every
 * webhook at the same instant.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(LONGEST_MS, FIRST_MS * 2 ** Math.min(attempt - 1, 30));
  return Math.round(full / 2 + (random() * full) / 2);
}
