#!/usr/bin/env node
// Runs the whole test suite (or the files under the paths given) with node:test through
// tsx, prints node's own summary and a plain "N passed, N failed" line, and fails when no
// test ran: a suite that silently runs nothing must never look green. First it finds or
// starts the services the suites need (scripts/test-services.mjs, one line each); an
// interrupted run (Ctrl-C, a kill) still reports what ran.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { provideTestServices } from './test-services.mjs';

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
const services = await provideTestServices();
let interrupted;
const child = spawn(
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
  { cwd: root, stdio: 'inherit', env: { ...process.env, ...services.env, NODE_ENV: 'test' } },
);
// Ctrl-C reaches the test runner too (same process group); this process stays to report.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted = signal;
    child.kill(signal);
  });
}
const status = await new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
await services.stop();

const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
const count = (name) => Number((tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
if (interrupted !== undefined || !/^# pass \d+$/m.test(tap)) {
  // No summary: the runner was stopped. Count the results it wrote (suites and tests).
  const ok = (tap.match(/^\s*ok \d+ /gm) ?? []).length;
  const notOk = (tap.match(/^\s*not ok \d+ /gm) ?? []).length;
  console.log(
    `interrupted${interrupted ? ` by ${interrupted}` : ''}: ${ok} results ok, ${notOk} not ok before it stopped (of ${files.length} files)`,
  );
  process.exit(1);
}
const passed = count('pass');
const failed = count('fail') + count('cancelled');
const skipped = count('skipped') + count('todo');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(status === 0 && failed === 0 ? 0 : 1);
