/**
 * Files Quarry reads at run time from its own folder (the console's sources, docs/, data/).
 *
 * A module cannot find them from its own `import.meta.url` once compiled: every module then
 * lives in a bundle chunk in dist/. This module sits one level below the package root both
 * as source (src/package-root.ts) and compiled (a chunk directly in dist/, see
 * scripts/build.mjs), so `../` from here is the root either way.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = new URL('../', import.meta.url);

/**
 * The absolute path of a file inside the package.
 *
 * @example packageFile('docs/language.md') // '/srv/quarry/docs/language.md'
 */
export function packageFile(relative: string): string {
  return fileURLToPath(new URL(relative, PACKAGE_ROOT));
}

/** The version in the package's package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}
