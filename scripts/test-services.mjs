// The services the test suites talk to: PostgreSQL (QUARRY_TEST_PG), Redis (QUARRY_TEST_REDIS)
// and Debian's Chromium for the browser tests. For each, use what is configured or already
// answering on its usual address; otherwise start a private one for this run (PostgreSQL in a
// temporary folder, run as the postgres OS user; Redis on a free port), installing Debian's
// package first when this runs as root; otherwise say why the suites that need it will fail.
// The machine's own configuration (pg_hba.conf, running clusters) is never changed.
//
// QUARRY_TEST_SERVICES=private skips the shared servers (to try the private path).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';

const SHARED_PG = 'postgres://postgres@127.0.0.1:5432';
const SHARED_REDIS = 'redis://127.0.0.1:6379';
const CHROMIUM = '/usr/bin/chromium';
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p));
const privateOnly = process.env['QUARRY_TEST_SERVICES'] === 'private';

const isRoot = () => process.getuid?.() === 0;
const has = (command) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Installs Debian packages when this runs as root with apt; returns whether it did. */
function aptInstall(log, ...packages) {
  if (!isRoot() || !has('apt-get')) return false;
  log(`installing Debian's ${packages.join(', ')} ...`);
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return true;
  } catch {
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
      execFileSync('apt-get', ['install', '-y', '-qq', ...packages], {
        stdio: 'ignore',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      return true;
    } catch {
      return false;
    }
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function pgAnswers(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: `${url}/postgres`, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/** The newest installed PostgreSQL's bin folder (Debian's layout), or undefined. */
function postgresBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(base, versions[0], 'bin') : undefined;
}

async function privatePostgres(bin) {
  if (!isRoot()) return { why: 'a private cluster needs root (to run it as the postgres OS user)' };
  if (RUNUSER === undefined) return { why: 'runuser is not installed' };
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  let uid;
  let gid;
  try {
    [uid, gid] = [id('-u'), id('-g')];
  } catch {
    return { why: 'there is no postgres OS user' };
  }
  const root = mkdtempSync(join(tmpdir(), 'quarry-test-pg-'));
  chmodSync(root, 0o755);
  chownSync(root, uid, gid);
  const dataDir = join(root, 'data');
  const port = await freePort();
  const asPostgres = (tool, args) =>
    execFileSync(RUNUSER, ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'ignore' });
  try {
    asPostgres('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    asPostgres('pg_ctl', [
      '-D',
      dataDir,
      '-w',
      '-l',
      join(root, 'log'),
      '-o',
      `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    return { why: `initdb or pg_ctl failed (${error.message.split('\n')[0]})` };
  }
  const stop = async () => {
    try {
      asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
    rmSync(root, { recursive: true, force: true });
  };
  return { url: `postgres://postgres@127.0.0.1:${port}`, stop };
}

async function providePostgres(log) {
  const configured = process.env['QUARRY_TEST_PG'];
  if (configured !== undefined) {
    const ok = await pgAnswers(configured);
    return { line: `QUARRY_TEST_PG${ok ? '' : ' (not answering: the PostgreSQL suites will fail)'}`, env: {} };
  }
  if (!privateOnly && (await pgAnswers(SHARED_PG)))
    return { line: 'the server at 127.0.0.1:5432 (user postgres)', env: {} };
  let bin = postgresBin();
  if (bin === undefined && aptInstall(log, 'postgresql')) bin = postgresBin();
  if (bin === undefined)
    return {
      line: "none: no server answers at 127.0.0.1:5432 and Debian's postgresql is not installed; the PostgreSQL suites will fail",
      env: {},
    };
  const cluster = await privatePostgres(bin);
  if (cluster.url === undefined)
    return {
      line: `none: no server answers at 127.0.0.1:5432 and ${cluster.why}; the PostgreSQL suites will fail`,
      env: {},
    };
  return {
    line: `a private cluster at ${cluster.url.replace('postgres://postgres@', '')} (${bin}), removed at the end`,
    env: { QUARRY_TEST_PG: cluster.url, QUARRY_PG_BIN: bin },
    stop: cluster.stop,
  };
}

async function provideRedis(log) {
  const configured = process.env['QUARRY_TEST_REDIS'];
  if (configured !== undefined) {
    const ok = await redisAnswers(configured);
    return { line: `QUARRY_TEST_REDIS${ok ? '' : ' (not answering: the Redis suites will fail)'}`, env: {} };
  }
  if (!privateOnly && (await redisAnswers(SHARED_REDIS))) return { line: 'the server at 127.0.0.1:6379', env: {} };
  if (!has('redis-server')) aptInstall(log, 'redis-server');
  if (!has('redis-server'))
    return {
      line: 'none: nothing answers at 127.0.0.1:6379 and redis-server is not installed; the Redis suites will fail',
      env: {},
    };
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50 && !(await redisAnswers(url)); i++) await sleep(100);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  if (!(await redisAnswers(url))) {
    await stop();
    return { line: 'none: a private redis-server did not start; the Redis suites will fail', env: {} };
  }
  return {
    line: `a private redis-server at 127.0.0.1:${port}, stopped at the end`,
    env: { QUARRY_TEST_REDIS: url },
    stop,
  };
}

function provideChromium(log) {
  if (existsSync(CHROMIUM)) return { line: CHROMIUM, env: {} };
  if (aptInstall(log, 'chromium') && existsSync(CHROMIUM)) return { line: `${CHROMIUM} (installed now)`, env: {} };
  return { line: `none: ${CHROMIUM} is missing (apt-get install chromium); the browser suites will fail`, env: {} };
}

/**
 * Finds or starts every service; prints one line for each. Returns the environment the tests
 * run with and a `stop()` for what it started.
 */
export async function provideTestServices(print = (line) => console.log(line)) {
  const log = (line) => print(`  ${line}`);
  const services = [
    ['PostgreSQL', await providePostgres(log)],
    ['Redis', await provideRedis(log)],
    ['Chromium', provideChromium(log)],
  ];
  for (const [name, { line }] of services) print(`${name}: ${line}`);
  return {
    env: Object.assign({}, ...services.map(([, s]) => s.env)),
    async stop() {
      for (const [, s] of services) if (s.stop) await s.stop();
    },
  };
}
