// The generator fills the 2026 fields of publications and grants so queries find records:
// books, monographs and chapters have a valid ISBN-13 (one per publication) and editors;
// every publication a grant supports states its funding, naming the grants' funders and
// numbers; every grant lists its project numbers. Two runs with one seed give the same
// records.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generate } from '../../src/data/generate/index.ts';
import { syntheticIsbn } from '../../src/data/generate/publications.ts';
import type { GrantRecord, OrganizationRecord, PublicationRecord } from '../../src/model/native-records.ts';

const work = mkdtempSync(join(tmpdir(), 'quarry-generate-2026-'));
after(() => rmSync(work, { recursive: true, force: true }));

function readKind<T>(dir: string, kind: string): T[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${kind}-`))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as T),
    );
}

/** Whether `isbn` is an ISBN-13 whose check digit holds. */
function validIsbn13(isbn: string): boolean {
  if (!/^\d{13}$/.test(isbn)) return false;
  const sum = [...isbn].reduce((n, d, k) => n + Number(d) * (k % 2 === 0 ? 1 : 3), 0);
  return sum % 10 === 0;
}

describe('generated 2026 fields', () => {
  let publications: PublicationRecord[];
  let grants: GrantRecord[];
  let organizations: Map<string, OrganizationRecord>;
  before(async () => {
    await generate({ publications: 600, seed: 20240601, outDir: join(work, 'a') });
    publications = readKind(join(work, 'a'), 'publications');
    grants = readKind(join(work, 'a'), 'grants');
    organizations = new Map(readKind<OrganizationRecord>(join(work, 'a'), 'organizations').map((o) => [o.id, o]));
  });

  test('books, monographs and chapters have one valid ISBN each, distinct, and editors; others neither', () => {
    const books = publications.filter((p) => ['book', 'monograph', 'chapter'].includes(p.type));
    assert.ok(books.length > 0, 'the run makes books or chapters');
    for (const p of books) {
      assert.equal(p.isbn?.length, 1, p.id);
      assert.ok(validIsbn13(p.isbn[0] as string), `${p.id}: ${String(p.isbn[0])}`);
      assert.match(p.editors ?? '', /^[^;]+ [^;]+(; [^;]+ [^;]+){0,2}$/, p.id);
    }
    assert.equal(new Set(books.map((p) => p.isbn?.[0])).size, books.length);
    for (const p of publications.filter((q) => !books.includes(q))) {
      assert.equal(p.isbn, undefined, p.id);
      assert.equal(p.editors, undefined, p.id);
    }
  });

  test('a publication states its funding exactly when grants support it, naming their funders and numbers', () => {
    const byId = new Map(grants.map((g) => [g.id, g]));
    let supported = 0;
    for (const p of publications) {
      if (p.supporting_grant_ids.length === 0) {
        assert.equal(p.funding_section, undefined, p.id);
        continue;
      }
      supported++;
      for (const id of p.supporting_grant_ids) {
        const grant = byId.get(id);
        assert.ok(grant, `${p.id} cites ${id}`);
        const funder = organizations.get(grant.funders[0] as string);
        assert.ok(p.funding_section?.includes(`${funder?.name} (grant ${grant.grant_number})`), p.id);
      }
    }
    assert.ok(supported > 0, 'the run makes supported publications');
  });

  test('every grant lists its grant number among its project numbers', () => {
    for (const g of grants)
      assert.deepEqual(g.project_numbers, [{ label: 'grant_number', value: g.grant_number }], g.id);
  });

  test('the same seed gives the same new fields', async () => {
    await generate({ publications: 600, seed: 20240601, outDir: join(work, 'b') });
    const again = readKind<PublicationRecord>(join(work, 'b'), 'publications');
    const pick = (p: PublicationRecord) => [p.id, p.isbn, p.editors, p.funding_section];
    assert.deepEqual(again.map(pick), publications.map(pick));
  });

  test('syntheticIsbn gives valid, distinct ISBN-13s', () => {
    const made = [0, 1, 9, 123_456, 999_999_999].map(syntheticIsbn);
    for (const isbn of made) assert.ok(validIsbn13(isbn), isbn);
    assert.equal(new Set(made).size, made.length);
  });
});
