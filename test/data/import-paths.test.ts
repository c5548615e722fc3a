// What a folder's manifest or an archive names stays inside it: a `manifest.json` naming
// `../`, an absolute path or a link out of its folder is refused with a code (before, the
// import opened `../../etc/passwd` and quoted its first line in the report), and a zip
// naming an entry outside itself is refused with a code, not an internal error; so is a
// manifest that cannot be read.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { recordWriterFor } from '../../src/backends.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { tempRecordDbs } from './helpers/record-db.ts';

const { work, freshDb } = tempRecordDbs('import-paths');

describe('what a manifest or an archive names stays inside it', () => {
  const outside = join(work, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'publications.jsonl'), JSON.stringify({ id: 'pub.1', title: 'T', year: 2020 }) + '\n');
  const folder = (name: string, file: string): string => {
    const dir = join(work, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ shards: [{ file, kind: 'publications' }] }));
    return dir;
  };

  test('a manifest naming ../, an absolute path or a link out of its folder is refused; one inside imports', async () => {
    const link = folder('linked', 'publications.jsonl');
    symlinkSync(join(outside, 'publications.jsonl'), join(link, 'publications.jsonl'));
    for (const [dir, file] of [
      [folder('dotdot', '../outside/publications.jsonl'), '../outside/publications.jsonl'],
      [folder('absolute', join(outside, 'publications.jsonl')), join(outside, 'publications.jsonl')],
      [folder('passwd', '../../../../../../../../etc/passwd'), '../../../../../../../../etc/passwd'],
      [link, 'publications.jsonl'],
    ] as const) {
      const db = freshDb();
      await assert.rejects(importFiles({ paths: [dir], open: recordWriterFor(db), onError: 'skip' }), {
        code: 'DATA_MANIFEST_PATH_OUTSIDE',
        message: `${join(dir, 'manifest.json')} names ${file}, which is not a file inside its folder ${dir}.`,
      });
    }
    const inside = folder('inside', 'publications.jsonl');
    writeFileSync(join(inside, 'publications.jsonl'), readFileSync(join(outside, 'publications.jsonl')));
    const report = await importFiles({ paths: [inside], open: recordWriterFor(freshDb()) });
    assert.equal(report.records.publications, 1);
  });

  test('a manifest that is not JSON, or whose shards are no list of files, is refused with a code', async () => {
    for (const [name, text, reason] of [
      ['truncated', '{"shards": [{"file": "pub', /JSON/],
      ['not-a-list', '{"shards": "publications.jsonl"}', /not a list of files/],
    ] as const) {
      const dir = join(work, `manifest-${name}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'manifest.json'), text);
      await assert.rejects(importFiles({ paths: [dir], open: recordWriterFor(freshDb()) }), (err: Error) => {
        assert.equal((err as { code?: string }).code, 'DATA_MANIFEST_UNREADABLE');
        assert.match(err.message, reason);
        assert.ok(err.message.startsWith(`${join(dir, 'manifest.json')} is not a manifest`), err.message);
        return true;
      });
    }
  });

  test('a zip naming an entry outside itself is refused with a code', async () => {
    for (const name of ['../evil.jsonl', '/etc/evil.jsonl']) {
      const zip = join(work, `slip-${name.length}.zip`);
      writeFileSync(zip, zipSync({ [name]: strToU8('{}\n') }));
      await assert.rejects(importFiles({ paths: [zip], open: recordWriterFor(freshDb()) }), {
        code: 'DATA_ZIP_UNREADABLE',
        message: new RegExp(`^${zip} is not a readable zip archive: .*${name.replace(/\./g, '\\.')}`),
      });
    }
  });
});
