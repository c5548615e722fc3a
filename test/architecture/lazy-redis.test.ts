// ioredis slows string scans in the whole process once loaded (bench/string-scan.ts): the
// service's modules must not load it unless a Redis is configured.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Whether ioredis is among the loaded CommonJS modules after `script` ran in a new process. */
function loadsIoredis(script: string): boolean {
  const probe = `${script}
const { createRequire } = await import('node:module');
const cache = createRequire(import.meta.url).cache;
console.log(JSON.stringify(Object.keys(cache).some((path) => path.includes('/node_modules/ioredis/'))));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop() as string) as boolean;
}

test("the service's modules leave ioredis unloaded until a Redis is connected", () => {
  assert.equal(
    loadsIoredis(
      "await import('./src/backends.ts'); await import('./src/http/app.ts'); await import('./src/main.ts');",
    ),
    false,
  );
  // And the probe sees it when it is loaded.
  assert.equal(loadsIoredis("await import('ioredis');"), true);
});
