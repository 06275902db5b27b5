/**
 * Times for batches in the order they are started, each later than the one before even
 * when the clock has not moved (or moved back): records keep the file's order (created_at,
 * then id) however the batches in flight finish.
 */
export function increasingStamps(clock: () => Date): () => Date {
  let last = 0;
  return () => {
    last = Math.max(clock().getTime(), last + 1);
    return new Date(last);
  };
}
