/**
 * Runs an entry's main function: exit code 0 once it is done, even with a pool or a timer
 * still open; 1 with the error printed when it throws.
 */
export function runEntry(main: () => Promise<unknown>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
