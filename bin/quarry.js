#!/usr/bin/env node
// The `quarry` command. `npm ci` compiles the sources to dist/ (scripts/build.mjs), which
// starts several times faster than compiling TypeScript at run time. When dist/ is missing,
// or any source it was built from changed since (a checkout, an edit), the sources run
// through tsx instead, so the command never runs stale code; `npm run build` makes it fast
// again. QUARRY_FROM_SOURCE=1 always runs the sources.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);

function compiledIsCurrent() {
  if (process.env.QUARRY_FROM_SOURCE === '1') return false;
  try {
    const info = JSON.parse(readFileSync(new URL('dist/build-info.json', root), 'utf8'));
    return info.inputs.every((input) => statSync(new URL(input, root)).mtimeMs <= info.builtAt);
  } catch {
    return false; // no build, or a source it read is gone
  }
}

let main;
if (compiledIsCurrent()) {
  ({ main } = await import('../dist/cli.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
await main(process.argv);
