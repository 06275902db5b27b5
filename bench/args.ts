/** The bench scripts' command line: `--name` flags and `--name value` options. */
const args = process.argv.slice(2);

export const flag = (name: string) => args.includes(`--${name}`);

export const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
