// The composition root: which back end a `database` setting names, and what it refuses.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  databaseTarget,
  openAccountBackends,
  openServiceBackends,
  recordWriterFor,
  redactUrl,
} from '../../src/backends.ts';
import { loadConfig } from '../../src/config.ts';
import { isQuarryError } from '../../src/errors/index.ts';

describe('the composition root', () => {
  test('a postgres:// or postgresql:// URL names PostgreSQL, anything else a SQLite file', () => {
    assert.deepEqual(databaseTarget('postgres://q@db/quarry', ['postgres://q@r1/quarry']), {
      kind: 'postgres',
      url: 'postgres://q@db/quarry',
      readUrls: ['postgres://q@r1/quarry'],
    });
    assert.equal(databaseTarget('postgresql://q@db/quarry').kind, 'postgres');
    assert.deepEqual(databaseTarget('./data/quarry.db'), { kind: 'sqlite', path: './data/quarry.db' });
    assert.deepEqual(databaseTarget('postgres.db'), { kind: 'sqlite', path: 'postgres.db' });
  });

  test('a URL is shown without its password', () => {
    assert.equal(redactUrl('postgres://quarry:s3cret@db:5432/quarry'), 'postgres://quarry:***@db:5432/quarry');
    assert.equal(redactUrl('redis://127.0.0.1:6379/0'), 'redis://127.0.0.1:6379/0');
  });

  test('the administration commands refuse a SQLite file that does not exist, naming it', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'quarry-root-')), 'typo.db');
    await assert.rejects(openAccountBackends(loadConfig({ overrides: { database: missing } })), (error: unknown) => {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_CONFIG_INVALID');
      assert.match(error.message, /typo\.db does not exist/);
      return true;
    });
  });

  test('a PostgreSQL server that does not answer is SERVICE_BACKEND_UNREACHABLE, its password hidden', async () => {
    const config = loadConfig({ overrides: { database: 'postgres://quarry:s3cret@127.0.0.1:1/quarry' } });
    await assert.rejects(openAccountBackends(config), (error: unknown) => {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_BACKEND_UNREACHABLE');
      assert.match(error.message, /PostgreSQL database at postgres:\/\/quarry:\*\*\*@127\.0\.0\.1:1\/quarry/);
      assert.doesNotMatch(error.message, /s3cret/);
      return true;
    });
  });

  test('serve and import on an unreachable PostgreSQL stop with the same coded error', async () => {
    const url = 'postgres://quarry:s3cret@127.0.0.1:1/quarry';
    const unreachable = (error: unknown) => {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_BACKEND_UNREACHABLE');
      assert.doesNotMatch(error.message, /s3cret/);
      return true;
    };
    await assert.rejects(openServiceBackends(loadConfig({ overrides: { database: url } })), unreachable);
    const target = recordWriterFor(url);
    assert.equal(target.name, 'postgres://quarry:***@127.0.0.1:1/quarry');
    await assert.rejects(target.isNew(), unreachable);
  });
});
