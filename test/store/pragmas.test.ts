// Connection tuning: the page cache, memory map and temporary storage a connection is given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { applyConnectionPragmas } from '../../src/store/sqlite/pragmas.ts';

test('a connection gets its share of cache and map; temporary B-trees spill to a file unless told to stay in memory', () => {
  const db = new Database(':memory:');
  applyConnectionPragmas(db, { cacheMb: 128, mmapMb: 0 });
  assert.equal(db.pragma('cache_size', { simple: true }), -128 * 1024);
  // temp_store: 1 = FILE, 2 = MEMORY.
  assert.equal(db.pragma('temp_store', { simple: true }), 1);
  applyConnectionPragmas(db, { tempStore: 'memory' });
  assert.equal(db.pragma('temp_store', { simple: true }), 2);
  db.close();
});
