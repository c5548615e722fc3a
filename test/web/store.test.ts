import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { LOGIN_CODE_LIFETIME_MS, newLoginCode, normaliseLoginCode, WebStore } from '../../src/web/store.ts';

function freshStore(): WebStore {
  return WebStore.open(join(mkdtempSync(join(tmpdir(), 'quarry-web-')), 'web.db'));
}

describe('login codes', () => {
  test('look like ABCD-EFGH-JKMN with no easily confused characters', () => {
    for (let i = 0; i < 50; i++)
      assert.match(newLoginCode(), /^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    assert.equal(normaliseLoginCode(' abcd-efgh jkmn '), 'ABCDEFGHJKMN');
  });

  test('work once, for their lifetime, and a new code replaces the old one', () => {
    const store = freshStore();
    const now = Date.parse('2026-01-01T00:00:00Z');
    const first = store.issueLoginCode(7, now);
    const second = store.issueLoginCode(7, now);
    assert.equal(store.consumeLoginCode(first.code, now), undefined, 'replaced');
    assert.equal(store.consumeLoginCode(second.code.toLowerCase(), now + 1000), 7);
    assert.equal(store.consumeLoginCode(second.code, now + 2000), undefined, 'used');
    const third = store.issueLoginCode(7, now);
    assert.equal(store.consumeLoginCode(third.code, now + LOGIN_CODE_LIFETIME_MS), undefined, 'expired');
    assert.equal(store.consumeLoginCode('', now), undefined);
    store.close();
  });
});

describe('administrators', () => {
  test('are granted and withdrawn per account', () => {
    const store = freshStore();
    assert.equal(store.isAdmin(1), false);
    store.setAdmin(1, true, 0);
    store.setAdmin(1, true, 0);
    assert.equal(store.isAdmin(1), true);
    assert.deepEqual([...store.adminIds()], [1]);
    store.setAdmin(1, false, 0);
    assert.equal(store.isAdmin(1), false);
    store.close();
  });
});
