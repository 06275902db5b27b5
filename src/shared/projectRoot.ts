import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's or the image's root: the nearest folder above `moduleUrl` holding a
 * package.json. Modules run from src/ (tests, tsx), dist/, dist-bench/ and the CLI's bundle
 * (dist/cli-bundle/), each at another depth, so a fixed `../..` would be right for only one.
 */
export function projectRoot(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${moduleUrl}`);
    dir = parent;
  }
  return dir;
}
