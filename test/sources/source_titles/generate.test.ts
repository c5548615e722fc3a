// The source titles a generator run makes (`data/generate/source-titles.ts`): journals of every
// division and titles of the three other types, each with the fields of §7.10 filled as the
// open lists fill them (well-formed ISSNs, a link, lists, a start year, metrics only for the
// Scopus-indexed), the same for the same seed; and the articles of the run appear in journals
// of the run.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { setUpContext } from '../../../src/data/generate/context-setup.ts';
import type { Context } from '../../../src/data/generate/context.ts';
import { makePublication, notePaperAuthors, pickAuthors, startPaper } from '../../../src/data/generate/publications.ts';
import { VENDOR_DIR } from '../../../src/data/generate/reference-data.ts';
import { syntheticIssn } from '../../../src/data/generate/source-titles.ts';
import type { PublicationRecord } from '../../../src/model/native-records.ts';
import { SOURCE_TITLE_TYPES } from '../../../src/sources/source_titles/fields.ts';
import { normalIssn } from '../../../src/sources/source_titles/issn.ts';
import type { SourceTitleRecord } from '../../../src/sources/source_titles/native.ts';

const PUBLICATIONS = 800;

/** The ISSN check character (ISO 3297) of its first seven digits. */
function checkOf(issn: string): string {
  const digits = issn.replace('-', '');
  let sum = 0;
  for (let k = 0; k < 7; k++) sum += Number(digits[k]) * (8 - k);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

describe('generated source titles', () => {
  let ctx: Context;
  let titles: readonly SourceTitleRecord[];
  let publications: PublicationRecord[];
  before(async () => {
    const run = await setUpContext({ publications: PUBLICATIONS, seed: 7, dataDir: VENDOR_DIR });
    ctx = run.ctx;
    titles = ctx.journals.records;
    publications = [];
    const cursor = { at: 0 };
    for (let i = 0; i < PUBLICATIONS; i++) {
      const year = run.yearOf(i);
      const start = startPaper(ctx, i, year, pickAuthors(ctx, i, cursor));
      notePaperAuthors(ctx, year, start);
      publications.push(makePublication(ctx, i, year, start));
    }
  });

  test('every type of the schema, the journals first; ids and titles unique', () => {
    const types = new Set(titles.map((t) => t.type));
    assert.deepEqual([...types].sort(), [...SOURCE_TITLE_TYPES].sort());
    assert.ok(titles.slice(0, ctx.plan.journals).every((t) => t.type === 'journal'));
    assert.equal(new Set(titles.map((t) => t.id)).size, titles.length);
    assert.equal(new Set(titles.map((t) => t.title)).size, titles.length);
  });

  test('ISSNs are well formed, listed with the print and electronic ones', () => {
    assert.equal(syntheticIssn(0), `9000-000${checkOf('9000-000')}`);
    for (const t of titles) {
      for (const issn of t.issn ?? []) {
        assert.equal(normalIssn(issn), issn, issn);
        assert.equal(issn.slice(-1), checkOf(issn), issn);
      }
      assert.deepEqual(
        t.issn ?? [],
        [t.issn_print, t.issn_electronic].filter((v) => v !== undefined),
      );
    }
    assert.ok(titles.filter((t) => t.type === 'journal').every((t) => t.issn_electronic !== undefined));
  });

  test('links, start years, lists and metrics as the lists give them', () => {
    for (const t of titles) {
      assert.match(t.linkout ?? '', /^https:\/\/[a-z0-9-]+\.example\/[a-z0-9-]+$/);
      assert.ok(t.start_year !== undefined && t.start_year >= 1950 && t.start_year <= 2023, `${t.id} start year`);
      const scopus = t.journal_lists?.includes('Scopus') === true;
      assert.equal(t.sjr !== undefined, scopus, `${t.id}: metrics only for the Scopus-indexed`);
      assert.equal(t.snip !== undefined, scopus);
      if (t.sjr !== undefined) assert.ok(t.sjr > 0 && t.sjr < 100);
    }
    const share = (keep: (t: SourceTitleRecord) => boolean): number => titles.filter(keep).length / titles.length;
    assert.ok(share((t) => t.journal_lists?.includes('DOAJ') === true) > 0.05);
    assert.ok(share((t) => t.sjr !== undefined) > 0.5);
    assert.ok(titles.every((t) => t.type === 'journal' || t.journal_lists?.includes('DOAJ') !== true));
  });

  test('the same seed makes the same titles', async () => {
    const again = await setUpContext({ publications: PUBLICATIONS, seed: 7, dataDir: VENDOR_DIR });
    assert.deepEqual(again.ctx.journals.records, titles);
  });

  test('articles appear in journals of the run, with their titles', () => {
    const byId = new Map(titles.map((t) => [t.id, t]));
    const articles = publications.filter((p) => p.type === 'article');
    assert.ok(articles.length > 0);
    for (const p of articles) {
      const journal = p.journal as { id: string; title: string } | undefined;
      assert.ok(journal, p.id);
      assert.equal(byId.get(journal.id)?.title, journal.title);
      assert.equal(byId.get(journal.id)?.type, 'journal');
    }
  });
});
