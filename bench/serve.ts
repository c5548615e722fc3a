/**
 * What the HTTP benchmarks share: the synthetic database they run on, `quarry serve` as a
 * child process on a free loopback port, and accounts with keys to call it with.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { AccountService } from '../src/accounts/service.ts';
import { openSqliteAccountStore } from '../src/store/sqlite/account-store.ts';

const root = new URL('..', import.meta.url).pathname;

/** `db` when given, else the synthetic database of bench/synthetic-db.ts at `scale` publications (built once). */
export function benchDatabase(db: string | undefined, scale: string): string {
  if (db !== undefined) return db;
  const out = `/tmp/quarry-synthetic-${scale}.db`;
  if (!existsSync(out)) {
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'bench/synthetic-db.ts', '--publications', scale, '--out', out],
      { cwd: root, stdio: 'inherit' },
    );
    if (r.status !== 0) throw new Error('building the synthetic database failed');
  }
  return out;
}

/** Starts `quarry serve` on a free loopback port (web pages off, log at warn) with `env` added. */
export function serve(dbPath: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['bin/quarry.js', 'serve', '--db', dbPath, '--port', '0'], {
    cwd: root,
    env: { ...process.env, QUARRY_LOG_LEVEL: 'warn', QUARRY_WEB: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let said = '';
    // The listening address goes to stderr (stdout carries the JSON log only).
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(said);
      if (match) resolve({ url: match[1] as string, child });
    });
    child.once('exit', (code) => reject(new Error(`quarry serve exited with ${code}:\n${said}`)));
  });
}

/** `count` new active accounts with one key each, in the service's database; returns the keys. */
export async function benchKeys(dbPath: string, count: number): Promise<string[]> {
  const store = openSqliteAccountStore(dbPath);
  const accounts = new AccountService({ store });
  try {
    const keys: string[] = [];
    for (let i = 0; i < count; i++) {
      const email = `bench-${Date.now()}-${i}@quarry.local`;
      await accounts.createAccount({ email, activate: true });
      keys.push((await accounts.createKey(email, 'bench')).key);
    }
    return keys;
  } finally {
    await accounts.shutdown();
    await store.close();
  }
}
