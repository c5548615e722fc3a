// A source's data-layer parts (src/sources/<name>/data.ts: its import formats' recognition and
// readers, its generator) are reached through one list, src/data/sources.ts, and the names of
// its formats through the registry of declarations: nothing a source folder brings is left
// unlisted, and every format a declaration names is recognised and read.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { SOURCE_GENERATORS } from '../../src/data/generate/source-generators.ts';
import { SOURCE_IMPORT_FORMATS } from '../../src/data/import/source-formats.ts';
import { SOURCE_DATA } from '../../src/data/sources.ts';
import { SOURCE_FORMAT_NAMES, SOURCE_NAMES } from '../../src/model/sources.ts';

const SOURCES = new URL('../../src/sources/', import.meta.url);
const folders = readdirSync(SOURCES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const has = (folder: string, file: string): boolean => existsSync(new URL(`${folder}/${file}`, SOURCES));

describe('the data-layer list of sources', () => {
  test('every source folder with a data.ts is listed in src/data/sources.ts, in registry order', () => {
    const withData = folders.filter((f) => has(f, 'data.ts'));
    assert.ok(withData.length >= 3);
    assert.deepEqual(
      SOURCE_DATA.map((d) => d.kind),
      SOURCE_NAMES.filter((name) => withData.includes(name)),
    );
  });

  test('a folder with a generator or import formats has a data.ts, and its generator is read', () => {
    for (const folder of folders) {
      if (has(folder, 'generate.ts') || has(folder, 'import-formats.ts'))
        assert.ok(has(folder, 'data.ts'), `src/sources/${folder}/ has a generator or import formats but no data.ts`);
      if (has(folder, 'generate.ts'))
        assert.ok(
          SOURCE_GENERATORS.some((g) => g.kind === folder),
          `src/sources/${folder}/generate.ts is in no generator of src/sources/${folder}/data.ts`,
        );
    }
  });

  test('every format a declaration names is recognised and read, in registry order', () => {
    assert.deepEqual(
      SOURCE_IMPORT_FORMATS.map((f) => [f.name, f.summary]),
      SOURCE_FORMAT_NAMES.map((f) => [f.name, f.summary]),
    );
    for (const format of SOURCE_IMPORT_FORMATS) {
      assert.equal(typeof format.detect, 'function', format.name);
      assert.equal(typeof format.reader.read, 'function', format.name);
    }
    for (const { kind, formats } of SOURCE_DATA)
      for (const name of Object.keys(formats ?? {}))
        assert.ok(
          SOURCE_FORMAT_NAMES.some((f) => f.kind === kind && f.name === name),
          `${kind}: ${name} is not named in its declaration's importFormats`,
        );
  });
});
