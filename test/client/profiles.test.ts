// Stored profiles: location, file mode, several named profiles, the default, bad files.
import assert from 'node:assert/strict';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type QuarryClientError } from '../../src/client/errors.ts';
import { loadProfile, profilePath, readProfiles, saveProfile } from '../../src/client/profiles.ts';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'quarry-profiles-')), 'nested', 'profiles.json');

test('the file lives in $QUARRY_CONFIG_DIR, else ~/.config/quarry', () => {
  assert.equal(profilePath({ QUARRY_CONFIG_DIR: '/srv/q' }), '/srv/q/profiles.json');
  assert.equal(profilePath({}), join(homedir(), '.config', 'quarry', 'profiles.json'));
});

test('several named profiles; the first is the default until another is made default; mode 600', () => {
  const path = fresh();
  saveProfile('work', { url: 'http://127.0.0.1:8080', family: 'auth', key: 'k1' }, { path });
  saveProfile('other', { url: 'http://127.0.0.1:9090', family: 'token', key: 'k2' }, { path });
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(loadProfile(undefined, path).name, 'work');
  assert.equal(loadProfile('other', path).family, 'token');
  saveProfile('other', { url: 'http://127.0.0.1:9091', family: 'token', key: 'k3' }, { path, makeDefault: true });
  assert.equal(loadProfile(undefined, path).url, 'http://127.0.0.1:9091');
  assert.deepEqual(Object.keys(readProfiles(path).profiles).sort(), ['other', 'work']);
  assert.equal(statSync(path).mode & 0o777, 0o600);
});

test('a missing profile and a damaged file are coded errors', () => {
  const path = fresh();
  assert.throws(
    () => loadProfile('nope', path),
    (e: QuarryClientError) => e.code === 'CLIENT_NO_PROFILE' && /--db FILE/.test(e.message),
  );
  saveProfile('a', { url: 'http://x', family: 'auth', key: 'k' }, { path });
  writeFileSync(path, '{ not json');
  assert.throws(
    () => loadProfile('a', path),
    (e: QuarryClientError) => e.code === 'CLIENT_PROFILE_FILE_INVALID',
  );
  writeFileSync(path, '[]');
  assert.throws(
    () => readProfiles(path),
    (e: QuarryClientError) => e.code === 'CLIENT_PROFILE_FILE_INVALID',
  );
});
