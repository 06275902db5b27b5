import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { projectRoot } from '../shared/projectRoot.js';

/** Where the build (scripts/consoleBundle.mjs) writes the console's bundle. */
export const CONSOLE_BUNDLE_DIR = path.join('dist', 'console-web');

export interface ConsoleAsset {
  /** the URL path it is served under: content-addressed, so browsers may keep it forever */
  url: string;
  contentType: string;
  body: Buffer;
  gzipped: Buffer;
}

export interface ConsoleAssets {
  script: ConsoleAsset;
  style: ConsoleAsset;
}

function load(file: string, extension: string, contentType: string): ConsoleAsset {
  const body = readFileSync(file);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return {
    url: `/console/assets/${hash}.${extension}`,
    contentType,
    body,
    gzipped: gzipSync(body),
  };
}

/**
 * The bundle, read and compressed once; undefined while it has not been built (a checkout
 * where only `tsc` ran), so the page can say how to build it instead of failing.
 */
export function loadConsoleAssets(dir?: string): ConsoleAssets | undefined {
  dir ??= path.join(projectRoot(import.meta.url), CONSOLE_BUNDLE_DIR);
  const script = path.join(dir, 'console.js');
  const style = path.join(dir, 'console.css');
  if (!existsSync(script) || !existsSync(style)) return undefined;
  return {
    script: load(script, 'js', 'text/javascript; charset=utf-8'),
    style: load(style, 'css', 'text/css; charset=utf-8'),
  };
}
