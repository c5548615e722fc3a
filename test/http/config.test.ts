import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_CONFIG, loadConfig } from '../../src/config.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { defaultFacetColumnsMb } from '../../src/facet-columns-budget.ts';

describe('configuration', () => {
  test('defaults follow spec/protocol.md', () => {
    const c = loadConfig();
    assert.deepEqual(c, DEFAULT_CONFIG);
    assert.equal(c.rateLimits.tokenV2.scope, 'account');
    assert.equal(c.rateLimits.tokenV3.scope, 'ip');
    assert.equal(c.query.maxBytes, 65536);
    assert.equal(c.query.timeoutMs, 30_000);
    assert.equal(c.tokens.tokenPathLifetimeSeconds, 7200);
  });

  test('file, then environment, then overrides', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-config-'));
    const file = join(dir, 'quarry.json');
    writeFileSync(
      file,
      JSON.stringify({
        port: 9000,
        host: '0.0.0.0',
        rateLimits: { tokenV2: { max: 100 } },
        versions: { v1RemovedFrom: 'never' },
      }),
    );
    const c = loadConfig({
      file,
      env: { QUARRY_PORT: '9100', QUARRY_TRUST_PROXY: '1', QUARRY_RATE_LIMITS: 'off', QUARRY_FAMILIES: 'auth' },
      overrides: { port: 9200 },
    });
    assert.equal(c.port, 9200);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.trustProxy, 1);
    assert.equal(c.rateLimits.enabled, false);
    assert.equal(c.rateLimits.tokenV2.max, 100);
    assert.equal(c.rateLimits.tokenV2.windowSeconds, 60);
    assert.equal(c.versions.v1RemovedFrom, null);
    assert.deepEqual(c.families, { token: false, auth: true });
  });

  test('the in-memory facet columns take a budget in MiB, 0 switching them off', () => {
    assert.equal(loadConfig().query.facetColumnsMb, defaultFacetColumnsMb());
    assert.equal(loadConfig({ env: { QUARRY_QUERY_FACET_COLUMNS_MB: '0' } }).query.facetColumnsMb, 0);
    assert.throws(
      () => loadConfig({ env: { QUARRY_QUERY_FACET_COLUMNS_MB: '-1' } }),
      (e: unknown) => isQuarryError(e) && JSON.stringify(e).includes('query.facetColumnsMb'),
    );
  });

  test('every problem is reported at once, with the setting named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-config-'));
    const file = join(dir, 'quarry.json');
    writeFileSync(
      file,
      JSON.stringify({
        port: 'eighty',
        prot: 1,
        rateLimits: { tokenV3: { scope: 'planet' } },
        tokens: { jwtSecret: 'short' },
      }),
    );
    try {
      loadConfig({ file, env: { QUARRY_QUERY_TIMEOUT_MS: 'soon' } });
      assert.fail('should throw');
    } catch (error) {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_CONFIG_INVALID');
      const text = error.problems.map((p) => p.message).join('\n');
      for (const part of [
        'prot is not a setting',
        'port must be',
        'rateLimits.tokenV3.scope',
        'tokens.jwtSecret',
        'QUARRY_QUERY_TIMEOUT_MS',
      ]) {
        assert.ok(text.includes(part), `${part} in:\n${text}`);
      }
    }
  });

  test('an unreadable file is a clear error', () => {
    assert.throws(() => loadConfig({ file: '/nonexistent/quarry.json' }), /could not be read as JSON/);
  });

  test('database is a file or a postgres URL; db and QUARRY_DB are its earlier names', () => {
    assert.equal(loadConfig({ overrides: { db: '/srv/q.db' } }).database, '/srv/q.db');
    assert.equal(loadConfig({ env: { QUARRY_DB: '/srv/q.db' } }).database, '/srv/q.db');
    const pg = loadConfig({
      env: { QUARRY_DB: '/srv/old.db', QUARRY_DATABASE_URL: 'postgresql://quarry@db.internal:5432/quarry' },
    });
    assert.equal(pg.database, 'postgresql://quarry@db.internal:5432/quarry', 'the URL variable wins');
    assert.equal(pg.db, pg.database, 'db always mirrors database');
    const replicas = loadConfig({
      env: {
        QUARRY_DATABASE_URL: 'postgres://p@primary/quarry',
        QUARRY_READ_URLS: 'postgres://r@replica1/quarry, postgres://r@replica2/quarry',
      },
    });
    assert.deepEqual(replicas.readUrls, ['postgres://r@replica1/quarry', 'postgres://r@replica2/quarry']);
    assert.throws(() => loadConfig({ overrides: { database: 'mysql://x@y/z' } }), /mysql:\/\/ is not a database/);
    assert.throws(() => loadConfig({ overrides: { db: 'a.db', database: 'b.db' } }), /both database and db/);
    assert.throws(
      () => loadConfig({ overrides: { readUrls: ['postgres://r@replica/quarry'] } }),
      /need a PostgreSQL database/,
    );
    assert.throws(
      () => loadConfig({ overrides: { database: 'postgres://p@primary/q', readUrls: ['replica'] } }),
      /"replica" is not a postgres:\/\/ URL/,
    );
  });

  test('redisUrl is a redis:// or rediss:// URL', () => {
    assert.equal(
      loadConfig({ env: { QUARRY_REDIS_URL: 'redis://127.0.0.1:6379/2' } }).redisUrl,
      'redis://127.0.0.1:6379/2',
    );
    assert.throws(
      () => loadConfig({ env: { QUARRY_REDIS_URL: '127.0.0.1:6379' } }),
      /redisUrl must be null or a redis:\/\//,
    );
  });
});
