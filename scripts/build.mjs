#!/usr/bin/env node
// Compiles Quarry to JavaScript in dist/ (run by `npm ci` as the `prepare` script, or
// `npm run build`), so the `quarry` command starts without compiling TypeScript at run time.
//
// - dist/cli.js is the command (src/cli/main.ts); every src/**/worker.ts and *-worker.ts
//   becomes dist/<name>.js, because worker threads load their module by file name (see
//   workerModule in src/engine/pool.ts); two workers of one name are refused.
// - Only Quarry's own code is bundled; packages load from node_modules as usual.
// - Code shared by the entries, and every module loaded with a dynamic import(), goes into
//   chunks directly in dist/ (code splitting): `quarry --help` loads none of the service.
//   Modules that find files from their own location rely on chunks sitting directly in
//   dist/ (src/package-root.ts, workerModule), so keep chunkNames without folders.
// - dist/build-info.json records when the build started and what it read; bin/quarry.js
//   runs the sources through tsx instead when any of them changed since.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { outdir: { type: 'string' }, quiet: { type: 'boolean' } } });
// Another folder serves tests that must not disturb dist/ under other running processes. It
// must sit directly in the package root too, for the reason given above.
const outdir = resolve(root, values.outdir ?? 'dist');
if (dirname(outdir) !== resolve(root)) throw new Error(`--outdir must be a folder directly in ${root}`);

function workers(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) workers(path, out);
    else if (entry.name === 'worker.ts' || entry.name.endsWith('-worker.ts')) out.push(path);
  }
  return out;
}

const entryPoints = { cli: join(root, 'src/cli/main.ts') };
for (const path of workers(join(root, 'src'))) {
  const name = basename(path, '.ts');
  if (name in entryPoints) throw new Error(`two worker modules are named ${name}.ts; dist/ needs one file per name`);
  entryPoints[name] = path;
}

const builtAt = Date.now();
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const result = await build({
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs)
  .map((input) => relative(root, join(process.cwd(), input)))
  .sort();
writeFileSync(join(outdir, 'build-info.json'), `${JSON.stringify({ builtAt, inputs }, null, 2)}\n`);
if (!values.quiet)
  console.log(`quarry: compiled ${inputs.length} modules to ${relative(root, outdir)}/ in ${Date.now() - builtAt} ms`);
