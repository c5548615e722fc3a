// The OpenAlex snapshot's other entities (authors, institutions, funders, sources) import with
// its works: researchers, organizations and source titles get the real names and details of the
// entity records, keyed as the works name them; a newer partition updates a record in place
// and merged ids remove the old entity. Expected counts and values are read from the fixture.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { recordWriterFor } from '../../src/backends.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { count, one, tempRecordDbs, type Row } from './helpers/record-db.ts';

const SNAPSHOT = fileURLToPath(new URL('../fixtures/data/openalex-snapshot/', import.meta.url));
const { work, freshDb } = tempRecordDbs('openalex-entities');

/** The records of one entity folder of a snapshot, oldest partition first. */
function entityRecords(entity: string, root = SNAPSHOT): Row[] {
  const dir = join(root, 'data', entity);
  return readdirSync(dir)
    .filter((d) => d.startsWith('updated_date='))
    .sort()
    .flatMap((d) =>
      gunzipSync(readFileSync(join(dir, d, 'part_000.gz')))
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row),
    );
}
const shortId = (id: unknown): string => String(id).replace('https://openalex.org/', '');
const byName = (records: Row[], name: string): Row => records.find((r) => r['display_name'] === name)!;
/** The records a query of the database file returns (of the source it searches). */
function shown(db: string, query: string): unknown {
  const conn = new Database(db, { readonly: true });
  try {
    const source = query.split(' ')[1] as string;
    return runQuery(conn, query, { dslVersion: 2 })[source];
  } finally {
    conn.close();
  }
}

describe('OpenAlex snapshot entities', () => {
  const works = entityRecords('works');
  const authors = entityRecords('authors');
  const institutions = entityRecords('institutions');
  const funders = entityRecords('funders');
  const sources = entityRecords('sources');

  test('every entity partition is read; counts match each folder manifest and the files', async () => {
    const db = freshDb();
    const report = await importFiles({ paths: [SNAPSHOT], open: recordWriterFor(db) });
    assert.deepEqual(report.problems, []);
    for (const entity of ['works', 'authors', 'institutions', 'funders', 'sources', 'publishers', 'topics']) {
      const manifest = JSON.parse(readFileSync(join(SNAPSHOT, 'data', entity, 'manifest'), 'utf8')) as {
        meta: { record_count: number };
      };
      const read = report.files.filter((f) => f.path.includes(`/data/${entity}/`)).reduce((n, f) => n + f.records, 0);
      assert.equal(read, manifest.meta.record_count, entity);
      assert.equal(read, entityRecords(entity).length, entity);
    }
    // Institutions and funders are organizations, sources source titles; publishers and topics have no table.
    assert.equal(report.records.organizations, institutions.length + funders.length);
    assert.equal(count(db, 'organizations'), institutions.length + funders.length);
    assert.equal(report.records.source_titles, sources.length);
    assert.equal(count(db, 'source_titles'), new Set(sources.map((s) => s['id'])).size);
    // Researchers: every author a work names, and every author record (one researcher per id).
    const authorIds = new Set([
      ...works.flatMap((w) => (w['authorships'] as Row[]).map((a) => (a['author'] as Row)['id']).filter((id) => id)),
      ...authors.filter((a) => a['display_name'] !== 'Deleted Author').map((a) => a['id']),
    ]);
    assert.equal(count(db, 'researchers'), authorIds.size);
  });

  test('an author OpenAlex deleted (its "Deleted Author" placeholder, no works) is not a researcher', async () => {
    const deleted = authors.filter((a) => a['display_name'] === 'Deleted Author');
    assert.ok(deleted.length > 0, 'the sample holds a deleted author');
    const db = freshDb();
    await importFiles({ paths: [SNAPSHOT], open: recordWriterFor(db) });
    for (const author of deleted) {
      assert.equal(one(db, 'SELECT id FROM researchers WHERE id = ?', shortId(author['id'])), undefined);
    }
    assert.equal(
      one(db, "SELECT id FROM researchers WHERE first_name || ' ' || last_name = 'Deleted Author'"),
      undefined,
    );
  });

  test('researchers, organizations and source titles hold the entity records’ values, linked from the works', async () => {
    const db = freshDb();
    await importFiles({ paths: [SNAPSHOT], open: recordWriterFor(db) });

    // An author a work also names: the author record replaces the researcher gathered from the work.
    const priem = byName(authors, 'Jason Priem');
    const priemId = shortId(priem['id']);
    const current = ((priem['last_known_institutions'] as Row[])[0] as Row)['ror'];
    assert.deepEqual(
      one(
        db,
        'SELECT first_name, last_name, total_publications, current_research_org_id, n_publications FROM researchers WHERE id = ?',
        priemId,
      ),
      {
        first_name: 'Jason',
        last_name: 'Priem',
        total_publications: priem['works_count'],
        current_research_org_id: current,
        n_publications: works.filter((w) =>
          (w['authorships'] as Row[]).some((a) => (a['author'] as Row)['id'] === priem['id']),
        ).length,
      },
    );
    assert.deepEqual(shown(db, `search researchers where id = "${priemId}" return researchers[id + orcid_id]`), [
      { id: priemId, orcid_id: [String(priem['orcid']).replace('https://orcid.org/', '')] },
    ]);
    // An older Author object (one last_known_institution) maps as well.
    const abbott = byName(authors, 'B. P. Abbott');
    assert.equal(
      one(db, 'SELECT current_research_org_id AS o FROM researchers WHERE id = ?', shortId(abbott['id']))!['o'],
      (abbott['last_known_institution'] as Row)['ror'],
    );

    // The institution under its ROR id, with its place.
    const inst = institutions[0]!;
    const geo = inst['geo'] as Row;
    assert.deepEqual(
      one(db, 'SELECT name, acronym, city_name, country_code, latitude FROM organizations WHERE id = ?', inst['ror']),
      {
        name: inst['display_name'],
        acronym: (inst['display_name_acronyms'] as string[])[0],
        city_name: geo['city'],
        country_code: geo['country_code'],
        latitude: geo['latitude'],
      },
    );

    // The funder under its ROR id: the works it funds link to it, with its name.
    const funder = funders[0]!;
    const ror = (funder['ids'] as Row)['ror'];
    const funded = works.filter((w) => ((w['funders'] ?? []) as Row[]).some((f) => f['id'] === funder['id']));
    assert.ok(funded.length > 0);
    assert.deepEqual(one(db, 'SELECT name, n_funded_publications FROM organizations WHERE id = ?', ror), {
      name: funder['display_name'],
      n_funded_publications: funded.length,
    });
    assert.deepEqual(
      shown(
        db,
        `search organizations where id = "${String(ror)}" return organizations[id + types + external_ids_fundref]`,
      ),
      [{ id: ror, types: ['Funder'], external_ids_fundref: [(funder['ids'] as Row)['crossref']] }],
    );

    // The full source record: title, publisher and ISSNs, and the works published in it.
    const nature = sources.find((s) => 'works_count' in s)!;
    const inNature = works.filter(
      (w) => ((w['primary_location'] as Row | null)?.['source'] as Row | null)?.['id'] === nature['id'],
    );
    assert.deepEqual(
      one(db, 'SELECT title, publisher, n_publications FROM source_titles WHERE id = ?', shortId(nature['id'])),
      {
        title: nature['display_name'],
        publisher: nature['host_organization_name'],
        n_publications: inNature.length,
      },
    );
  });

  test('a newer partition updates entities in place; merged ids remove the old author and source', async () => {
    const copy = join(work, 'snapshot-update');
    cpSync(SNAPSHOT, copy, { recursive: true });
    const db = freshDb();
    await importFiles({ paths: [copy], open: recordWriterFor(db) });
    const before = { researchers: count(db, 'researchers'), source_titles: count(db, 'source_titles') };
    const priem = byName(authors, 'Jason Priem');
    const inst = institutions[0]!;
    const [abbott, dropped] = [byName(authors, 'B. P. Abbott'), sources.find((s) => !('works_count' in s))!];
    const part = (entity: string, records: Row[]): void => {
      const dir = join(copy, 'data', entity, 'updated_date=2099-01-01');
      mkdirSync(dir);
      writeFileSync(join(dir, 'part_000.gz'), gzipSync(records.map((r) => JSON.stringify(r)).join('\n') + '\n'));
    };
    part('authors', [{ ...priem, display_name: 'Jason A. Priem', works_count: 63, updated_date: '2099-01-01' }]);
    part('institutions', [{ ...inst, display_name: 'University of Michigan–Ann Arbor', updated_date: '2099-01-01' }]);
    const merged = (entity: string, id: unknown): void => {
      const dir = join(copy, 'data/merged_ids', entity);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, '2099-01-01.csv.gz'),
        gzipSync(`merge_date,id,merge_into_id\n2099-01-01,${shortId(id)},${shortId(priem['id'])}\n`),
      );
    };
    merged('authors', abbott['id']);
    merged('sources', dropped['id']);

    const report = await importFiles({ paths: [copy], open: recordWriterFor(db) });
    assert.deepEqual(report.removed, { researchers: 1, source_titles: 1 });
    assert.equal(count(db, 'researchers'), before.researchers - 1);
    assert.equal(count(db, 'source_titles'), before.source_titles - 1);
    assert.equal(count(db, 'organizations'), institutions.length + funders.length);
    assert.deepEqual(
      one(db, 'SELECT first_name, last_name, total_publications FROM researchers WHERE id = ?', shortId(priem['id'])),
      { first_name: 'Jason A.', last_name: 'Priem', total_publications: 63 },
    );
    assert.deepEqual(one(db, 'SELECT name FROM organizations WHERE id = ?', inst['ror']), {
      name: 'University of Michigan–Ann Arbor',
    });
    assert.equal(one(db, 'SELECT id FROM researchers WHERE id = ?', shortId(abbott['id'])), undefined);
    assert.equal(one(db, 'SELECT id FROM source_titles WHERE id = ?', shortId(dropped['id'])), undefined);
  });
});
