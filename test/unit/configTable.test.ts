import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, withCurrentConfigTable } from '../../scripts/config-table.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { variablesOf } from '../../src/config/configVariables.js';

describe("README's Configuration table", () => {
  it('is what src/config/configVariables.ts renders to now (npm run docs:config)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme, "README's Configuration table is stale: npm run docs:config").toBe(
      withCurrentConfigTable(readme),
    );
  });

  it('names each variable once', () => {
    const names = variablesOf().map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(variablesOf().filter((v) => v.default !== undefined))(
    "$name's documented default is a value it accepts",
    (variable) => {
      const env = { [variable.name]: variable.default! };
      expect(() => loadConfig(env), `${variable.name}=${variable.default}`).not.toThrow(
        ConfigError,
      );
      expect(loadConfig(env)).toEqual(loadConfig({}));
    },
  );
});
