// The two ways `quarry` runs: compiled by scripts/build.mjs (what `npm ci` sets up), and from
// the TypeScript sources through tsx. Both must start the service, whose query workers load
// compiled JavaScript in the one mode and TypeScript in the other, and whose web pages read
// their sources from src/web/ either way.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { RECORD_MIGRATIONS } from '../../src/store/sqlite/records-schema.ts';
import { tinyDatabase } from '../engine/fixtures/tiny-db.ts';

const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'bin/quarry.js');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** Its own build folder, so that dist/ stays untouched under other tests that run the command. */
const outdir = `dist-test-${process.pid}`;

/** `node -e` running the compiled command's main() with these arguments. */
function compiledArgv(args: readonly string[]): string[] {
  const entry = join(root, outdir, 'cli.js');
  const script = `const { main } = await import(${JSON.stringify(entry)}); await main(['node', 'quarry', ...process.argv.slice(1)]);`;
  return ['--input-type=module', '-e', script, '--', ...args];
}

/** Starts `serve` on a free port and returns its URL once /readyz (which asks every worker) answers 200. */
async function serveAndCheck(argv: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, argv, {
    env: { ...process.env, QUARRY_LOG_LEVEL: 'warn', QUARRY_QUERY_WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 30_000);
      // The listening line goes to stderr (stdout carries the JSON log only).
      child.stderr.on('data', () => {
        const match = /Quarry is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
    });
    const ready = await fetch(`${url}/readyz`);
    assert.equal(ready.status, 200, `readyz: ${await ready.text()}\n${out}`);
    const home = await fetch(`${url}/`);
    assert.equal(home.status, 200);
    return url;
  } finally {
    child.kill('SIGTERM');
  }
}

describe('the compiled command', { timeout: 120_000 }, () => {
  before(() => {
    const build = spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--outdir', outdir, '--quiet'], {
      encoding: 'utf8',
    });
    assert.equal(build.status, 0, build.stderr);
  });
  after(() => rmSync(join(root, outdir), { recursive: true, force: true }));

  test('the build lists what it read, and makes every worker.ts and *-worker.ts an entry of its own', () => {
    const info = JSON.parse(readFileSync(join(root, outdir, 'build-info.json'), 'utf8')) as {
      builtAt: number;
      inputs: string[];
    };
    assert.ok(info.inputs.includes('src/cli/main.ts'));
    assert.ok(info.inputs.includes('src/engine/backends/sqlite/worker.ts'));
    assert.ok(readFileSync(join(root, outdir, 'worker.js'), 'utf8').length > 0);
  });

  test('--version prints the package version, compiled and from source', () => {
    const compiled = spawnSync(process.execPath, compiledArgv(['--version']), { encoding: 'utf8' });
    assert.equal(compiled.status, 0, compiled.stderr);
    assert.equal(compiled.stdout, `${version}\n`);
    const source = spawnSync(process.execPath, [bin, '--version'], {
      encoding: 'utf8',
      env: { ...process.env, QUARRY_FROM_SOURCE: '1' },
    });
    assert.equal(source.status, 0, source.stderr);
    assert.equal(source.stdout, `${version}\n`);
  });

  test('--help loads commander and no other package (database drivers, zip reader, progress bar load per command)', () => {
    // CommonJS packages imported from ESM enter require.cache, so it lists what was loaded.
    const entry = join(root, outdir, 'cli.js');
    const script = [
      "import { createRequire } from 'node:module';",
      'const cache = createRequire(import.meta.url).cache;',
      "process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify(Object.keys(cache)) + '\\n'));",
      `const { main } = await import(${JSON.stringify(entry)});`,
      "await main(['node', 'quarry', '--help']);",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Usage: quarry/);
    const loaded = JSON.parse(/^LOADED (.*)$/m.exec(run.stderr)?.[1] ?? '[]') as string[];
    const packages = new Set(
      loaded.flatMap((path) => {
        const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
        return match ? [match[1]!] : [];
      }),
    );
    assert.deepEqual([...packages], ['commander']);
  });

  test('compiled: serve starts, its workers (compiled JavaScript) answer, and the pages are served', async () => {
    const db = tinyDatabase();
    await serveAndCheck(compiledArgv(['serve', '--db', db, '--host', '127.0.0.1', '--port', '0']), {});
  });

  test('from source: serve starts and its workers (TypeScript through tsx) answer', async () => {
    const db = tinyDatabase();
    await serveAndCheck([bin, 'serve', '--db', db, '--host', '127.0.0.1', '--port', '0'], { QUARRY_FROM_SOURCE: '1' });
  });

  test('a local query gives the same answer compiled and from source', () => {
    const db = tinyDatabase();
    const args = ['query', '--db', db, 'search publications where year = 2019 return year'];
    const compiled = spawnSync(process.execPath, compiledArgv(args), { encoding: 'utf8' });
    const source = spawnSync(process.execPath, [bin, ...args], {
      encoding: 'utf8',
      env: { ...process.env, QUARRY_FROM_SOURCE: '1' },
    });
    assert.equal(compiled.status, 0, compiled.stderr);
    assert.equal(source.status, 0, source.stderr);
    assert.deepEqual(JSON.parse(compiled.stdout), { year: [{ id: 2019, count: 2 }], _stats: { total_count: 2 } });
    assert.equal(compiled.stdout, source.stdout);
  });

  test('compiled: an import into a new database makes its record tables from the frozen migration files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-compiled-import-'));
    writeFileSync(join(dir, 'publications.jsonl'), '{"id":"pub.1","title":"Frozen","year":2020,"type":"article"}\n');
    const db = join(dir, 'new.db');
    const run = spawnSync(process.execPath, compiledArgv(['import', '--db', db, join(dir, 'publications.jsonl')]), {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const query = spawnSync(
      process.execPath,
      compiledArgv(['query', '--db', db, 'search publications where year = 2020 return publications[id]']),
      { encoding: 'utf8' },
    );
    assert.equal(query.status, 0, query.stderr);
    assert.deepEqual((JSON.parse(query.stdout) as { publications: unknown[] }).publications, [{ id: 'pub.1' }]);
    // Every records migration ran, those the source folders hold (src/sources/<name>/migrations/) too.
    const made = new Database(db, { readonly: true });
    try {
      const versions = made
        .prepare("SELECT version FROM schema_migrations WHERE migration_set = 'records' ORDER BY version")
        .pluck()
        .all();
      assert.deepEqual(
        versions,
        RECORD_MIGRATIONS.map((m) => m.version),
      );
      const tables = made
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name IN ('patents', 'datasets', 'clinical_trials')",
        )
        .pluck()
        .all();
      assert.deepEqual([...tables].sort(), ['clinical_trials', 'datasets', 'patents']);
    } finally {
      made.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

test('no module finds files from its own location, which compiled is a chunk in dist/', () => {
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts') && path !== join(root, 'src/package-root.ts')) {
        const text = readFileSync(path, 'utf8')
          .split('\n')
          .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
          .join('\n');
        // workerModule() is the one sanctioned use: it picks the compiled worker beside the chunk.
        if (/import\.meta\.(url|dirname|filename)/.test(text.replace(/workerModule\([^)]*import\.meta\.url\)/g, '')))
          offenders.push(relative(root, path));
      }
    }
  };
  walk(join(root, 'src'));
  assert.deepEqual(offenders, [], 'use packageFile() from src/package-root.ts instead');
});

describe('bin/quarry.js chooses the build only while it is current', () => {
  // A stand-in package: a "compiled" main and a "source" main that each say which they are.
  const pkg = mkdtempSync(join(tmpdir(), 'quarry-bin-'));
  mkdirSync(join(pkg, 'bin'));
  mkdirSync(join(pkg, 'dist'));
  mkdirSync(join(pkg, 'src/cli'), { recursive: true });
  copyFileSync(bin, join(pkg, 'bin/quarry.js'));
  writeFileSync(join(pkg, 'package.json'), '{"type": "module"}');
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'));
  writeFileSync(join(pkg, 'dist/cli.js'), "export function main() { console.log('compiled'); }\n");
  writeFileSync(join(pkg, 'src/cli/main.ts'), "export function main(): void { console.log('source'); }\n");
  const run = (env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(pkg, 'bin/quarry.js')], { encoding: 'utf8', env: { ...process.env, ...env } })
      .stdout;
  const stamp = (builtAt: number) =>
    writeFileSync(join(pkg, 'dist/build-info.json'), JSON.stringify({ builtAt, inputs: ['src/cli/main.ts'] }));
  const sourceTime = Date.now() - 60_000;
  utimesSync(join(pkg, 'src/cli/main.ts'), sourceTime / 1000, sourceTime / 1000);
  after(() => rmSync(pkg, { recursive: true, force: true }));

  test('no build: the sources', () => {
    assert.equal(run(), 'source\n');
  });
  test('a build newer than every source it read: the build', () => {
    stamp(Date.now());
    assert.equal(run(), 'compiled\n');
  });
  test('a source changed after the build: the sources', () => {
    stamp(sourceTime - 1000);
    assert.equal(run(), 'source\n');
  });
  test('a source the build read is gone: the sources', () => {
    writeFileSync(
      join(pkg, 'dist/build-info.json'),
      JSON.stringify({ builtAt: Date.now(), inputs: ['src/cli/main.ts', 'src/gone.ts'] }),
    );
    assert.equal(run(), 'source\n');
  });
  test('QUARRY_FROM_SOURCE=1: the sources', () => {
    stamp(Date.now());
    assert.equal(run({ QUARRY_FROM_SOURCE: '1' }), 'source\n');
  });
});
