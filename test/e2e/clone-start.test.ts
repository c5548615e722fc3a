// A clone of the repository on its own starts: `git clone` of this checkout's HEAD into a
// temporary folder with nothing beside it (no shared/ data folder), node_modules linked in
// to keep it fast, then what `npm start` runs (`quarry serve --demo`) on a temporary
// database and a free port, until /healthz answers and demo queries find records of every
// source the generator makes.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SOURCE_GENERATORS } from '../../src/data/generate/source-generators.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'quarry-clone-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Lines the child prints, and a way to wait for one that matches. */
function watch(stream: NodeJS.ReadableStream): { text: () => string; waitFor: (re: RegExp) => Promise<string> } {
  let text = '';
  const waiters: { re: RegExp; resolve: (m: string) => void }[] = [];
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    text += chunk;
    for (const w of [...waiters]) {
      const m = w.re.exec(text);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m[1] ?? m[0]);
      }
    }
  });
  return {
    text: () => text,
    waitFor: (re) =>
      new Promise((resolve) => {
        const m = re.exec(text);
        if (m) resolve(m[1] ?? m[0]);
        else waiters.push({ re, resolve });
      }),
  };
}

test(
  'a clone with no shared/ beside it starts the demo service and answers queries',
  { timeout: 240_000 },
  async () => {
    // Two levels of our own folders above the clone, so neither ../shared nor ../../shared can exist.
    const clone = join(work, 'checkouts', 'quarry');
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    assert.equal(cloned.status, 0, cloned.stderr);
    for (const up of [dirname(clone), dirname(dirname(clone))])
      assert.ok(!existsSync(join(up, 'shared')), `${up}/shared must not exist for this test`);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');

    const child = spawn(
      process.execPath,
      ['bin/quarry.js', 'serve', '--demo', '--db', join(work, 'db', 'quarry.db'), '--port', '0'],
      { cwd: clone, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const out = watch(child.stdout);
    const err = watch(child.stderr);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await Promise.race([
        err.waitFor(/Quarry is listening on (\S+)/),
        exited.then((code) => {
          throw new Error(`quarry serve exited with ${code}:\n${out.text()}\n${err.text()}`);
        }),
      ]);
      const key = await err.waitFor(/Demo API key: (\S+)/);
      const health = await fetch(`${url}/healthz`);
      assert.equal(health.status, 200);

      const token = await (await fetch(`${url}/v3/token?api_key=${encodeURIComponent(key)}`)).text();
      const query = 'search publications for "climate change" return publications[id + title + year] limit 3';
      const answer = await fetch(`${url}/v3/api/query`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: query,
      });
      assert.equal(answer.status, 200, await answer.clone().text());
      const body = (await answer.json()) as { publications: { id: string }[]; _stats: { total_count: number } };
      assert.equal(body.publications.length, 3);
      assert.ok(body._stats.total_count >= 10, `"climate change" finds ${body._stats.total_count} demo publications`);

      // The sources with a generator are in the demo too.
      for (const { kind } of SOURCE_GENERATORS) {
        const listed = await fetch(`${url}/v3/api/query`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          body: `search ${kind} return ${kind} limit 3`,
        });
        assert.equal(listed.status, 200, await listed.clone().text());
        const records = ((await listed.json()) as Record<string, { id: string }[]>)[kind];
        assert.equal(records?.length, 3, `the demo lists ${kind}`);
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  },
);
