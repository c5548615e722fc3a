#!/usr/bin/env node
// Runs the whole test suite (or the files under the paths given) with node:test through
// tsx, prints node's own summary and a plain "N passed, N failed" line, and fails when no
// test ran: a suite that silently runs nothing must never look green.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const roots = args.length > 0 ? args : ['test'];

function collect(path, out) {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const entry of readdirSync(path).sort()) collect(join(path, entry), out);
  } else if (/\.test\.ts$/.test(path)) {
    out.push(path);
  }
  return out;
}

const files = roots.flatMap((r) => collect(join(root, r), []));
if (files.length === 0) {
  console.error(`no test files under ${roots.join(', ')}`);
  process.exit(1);
}

const tapFile = join(mkdtempSync(join(tmpdir(), 'quarry-test-')), 'report.tap');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
    ...files.map((f) => relative(root, f)),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);

const tap = readFileSync(tapFile, 'utf8');
const count = (name) => Number((tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled');
const skipped = count('skipped') + count('todo');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(result.status === 0 && failed === 0 ? 0 : 1);
