// The 2026 fields the open formats carry, mapped by their importers from the real samples in
// test/fixtures/data: Crossref works give a book's or chapter's `isbn` (from `isbn-type`, else
// `ISBN`) and `editors` (from `editor`); NIH award actions and ExPORTER projects give a grant's
// `project_numbers` (the full and the core project number). Expected values are read from
// the raw fixture rows, not from the mapping.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { crossrefToPublication } from '../../src/data/import/formats/crossref.ts';
import { exporterToGrant, nihProjectNumbers, nihToGrant } from '../../src/data/import/formats/nih.ts';

const DATA = fileURLToPath(new URL('../fixtures/data/', import.meta.url));

type Raw = Readonly<Record<string, unknown>>;
const works: Raw[] = readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Raw);

describe('Crossref works: isbn and editors', () => {
  test('every work that lists ISBNs keeps each of them, digits only, once', () => {
    const withIsbn = works.filter((w) => Array.isArray(w['ISBN']));
    assert.ok(withIsbn.length >= 3, 'the sample holds books and chapters with ISBNs');
    for (const w of withIsbn) {
      const expected = [...new Set((w['ISBN'] as string[]).map((v) => v.replace(/-/g, '')))].sort();
      assert.deepEqual([...(crossrefToPublication(w).isbn ?? [])].sort(), expected, String(w['DOI']));
    }
  });

  test('a work without ISBNs has none', () => {
    const articles = works.filter((w) => w['ISBN'] === undefined && w['isbn-type'] === undefined);
    assert.ok(articles.length > 0);
    for (const w of articles) assert.equal(crossrefToPublication(w).isbn, undefined, String(w['DOI']));
  });

  test('ISBNs written with hyphens or a check X are normalised; bad ones are dropped', () => {
    const book = works.find((w) => Array.isArray(w['ISBN']))!;
    const mapped = crossrefToPublication({
      ...book,
      'isbn-type': [
        { type: 'print', value: '978-3-16-148410-0' },
        { type: 'print', value: '0-8044-2957-x' },
        { type: 'electronic', value: '12345' },
      ],
    });
    assert.deepEqual(mapped.isbn, ['9783161484100', '080442957X']);
  });

  test('editors are the `editor` names as printed, given name first, joined by "; "', () => {
    const edited = works.filter((w) => Array.isArray(w['editor']));
    assert.ok(edited.length > 0, 'the sample holds an edited book');
    for (const w of edited) {
      const names = (w['editor'] as Raw[]).map((e) => `${String(e['given'])} ${String(e['family'])}`);
      assert.equal(crossrefToPublication(w).editors, names.join('; '), String(w['DOI']));
    }
    const plain = works.find((w) => w['editor'] === undefined)!;
    assert.equal(crossrefToPublication(plain).editors, undefined);
    const byName = crossrefToPublication({ ...plain, editor: [{ name: 'IEEE Editorial Board' }] });
    assert.equal(byName.editors, 'IEEE Editorial Board');
  });
});

describe('NIH grants: project numbers', () => {
  const [header, ...lines] = readFileSync(join(DATA, 'nih_reporter/nih_awards.csv'), 'utf8').trim().split('\n');
  const columns = (header as string).split(',');
  const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, k) => [columns[k] as string, v])));

  test('each award action keeps its full project number and the core number read from it', () => {
    for (const row of rows) {
      const project = row['project_number'] as string;
      // Type digit, then activity, institute and serial up to the support year.
      const core = /^\d([A-Z0-9]{3}[A-Z]{2}\d{6})-/.exec(project)?.[1];
      assert.ok(core, project);
      assert.deepEqual(nihToGrant(row).project_numbers, [
        { label: 'project_number', value: project },
        { label: 'core_project_number', value: core },
      ]);
    }
  });

  test('an ExPORTER project takes its core number from CORE_PROJECT_NUM when the file gives it', () => {
    const row = rows[0] as Record<string, string>;
    const project = row['project_number'] as string;
    const grant = exporterToGrant({
      APPLICATION_ID: '10900000',
      FULL_PROJECT_NUM: project,
      CORE_PROJECT_NUM: 'R01AI999999',
      FY: '2022',
      PROJECT_TITLE: 'A project',
    });
    assert.deepEqual(grant.project_numbers, [
      { label: 'project_number', value: project },
      { label: 'core_project_number', value: 'R01AI999999' },
    ]);
  });

  test('a number that is no NIH project number is kept alone', () => {
    assert.deepEqual(nihProjectNumbers('NCI-2011-01234'), [{ label: 'project_number', value: 'NCI-2011-01234' }]);
  });
});
