import { z } from 'zod';
import {
  configVariables,
  isVariable,
  variablesOf,
  type ConfigGroup,
  type ConfigValues,
} from './config/configVariables.js';

/**
 * The configuration as the code receives it: each variable's value where
 * config/configVariables.ts puts it. BASE_URL unset is `http://HOST:PORT`, and
 * DATABASE_MIGRATION_URL unset is DATABASE_URL (loadConfig fills them in).
 */
export type Config = ConfigValues & { baseUrl: string };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

/** The variables by name, each read by its schema (or from its default when unset). */
const envSchema = z.object(
  Object.fromEntries(
    variablesOf().map((v) => [
      v.name,
      v.default === undefined ? v.schema : v.schema.prefault(v.default),
    ]),
  ),
);

/** Parses the environment once; the result is passed down, never re-read. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  const problems = [
    ...describeIssues(parsed.success ? [] : parsed.error.issues),
    ...missingTogether(cleaned),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const values = placed(configVariables, parsed.data) as ConfigValues;
  return {
    ...values,
    baseUrl: values.baseUrl ?? `http://${values.host}:${values.port}`,
    postgres: {
      ...values.postgres,
      migrationUrl: values.postgres.migrationUrl ?? values.databaseUrl,
    },
  };
}

/**
 * One line per variable (nested paths name the entry too: DEPRECATED_METHODS.getMe), with
 * every reason it failed, so a start-up error reads as a list of what to fix.
 */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const reasons = new Map<string, string[]>();
  for (const issue of issues) {
    const name = issue.path.map(String).join('.');
    reasons.set(name, [...(reasons.get(name) ?? []), issue.message]);
  }
  return [...reasons].map(
    ([name, messages]) => `invalid environment variable ${name}: ${messages.join('; ')}`,
  );
}

/** Variables one requires of another, checked with the others so one start reports all. */
function missingTogether(env: Record<string, string | undefined>): string[] {
  if (env.DATABASE_URL && !env.ENCRYPTION_KEY) {
    return [
      'missing environment variable ENCRYPTION_KEY: required when DATABASE_URL is set (32 bytes, base64)',
    ];
  }
  return [];
}

/** The parsed values by variable name, put in the table's shape. */
function placed(group: ConfigGroup, byName: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(group).map(([key, entry]) => [
      key,
      isVariable(entry) ? byName[entry.name] : placed(entry, byName),
    ]),
  );
}
