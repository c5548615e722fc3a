/**
 * The open title lists as source titles, one record a row:
 *
 * - DOAJ's journal CSV (`https://doaj.org/csv`, journal metadata CC BY-SA 4.0: keep the
 *   attribution): a journal in the list, keyed `doaj:` and the id of its DOAJ page, with its
 *   print and electronic ISSNs, its URL and publisher, `journal_lists` `DOAJ` (and `DOAJ Seal`
 *   for the journals awarded it), and as `start_year` the year it began publishing all of its
 *   content under an open licence (the earliest year the list gives);
 * - Crossref's title list (`titleFile.csv`): a title keyed `crossref:` and its Crossref
 *   journal id, with its ISSNs (print, electronic, additional), publisher, its title DOI as
 *   the link, and the earliest year its DOI coverage string names as `start_year`.
 *
 * The lists do not say which of their titles are the same: each keys its own, and `finish()`
 * makes the titles that share an ISSN one record (`store/source-title-merge.ts`, docs/data.md
 * "Source titles from several lists").
 */
import { MalformedRecord } from '../../data/import/formats/common.ts';
import type { CsvLayout, CsvRow } from './csv-rows.ts';
import { issnList, normalIssn } from './issn.ts';
import type { SourceTitleRecord } from './native.ts';

const cell = (row: CsvRow, column: string): string | undefined => {
  const value = row[column]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** A year of the lists' range, or undefined. */
function yearOf(value: string | undefined): number | undefined {
  const year = value === undefined ? NaN : Number(value);
  return Number.isInteger(year) && year >= 1600 && year <= 2100 ? year : undefined;
}

/** The fields every list gives alike. */
function titleFields(
  id: string,
  title: string | undefined,
  fields: {
    print?: string | undefined;
    electronic?: string | undefined;
    more?: readonly string[];
    linkout?: string | undefined;
    publisher?: string | undefined;
    startYear?: number | undefined;
    lists?: readonly string[];
  },
): SourceTitleRecord {
  if (title === undefined) throw new MalformedRecord(`source title ${id} has no title`);
  const print = normalIssn(fields.print);
  const electronic = normalIssn(fields.electronic);
  const issn = issnList([print, electronic, ...(fields.more ?? [])]);
  return {
    id,
    title,
    type: 'journal',
    ...(issn.length === 0 ? {} : { issn }),
    ...(print === undefined ? {} : { issn_print: print }),
    ...(electronic === undefined ? {} : { issn_electronic: electronic }),
    ...(fields.lists === undefined || fields.lists.length === 0 ? {} : { journal_lists: fields.lists }),
    ...(fields.linkout === undefined ? {} : { linkout: fields.linkout }),
    ...(fields.startYear === undefined ? {} : { start_year: fields.startYear }),
    ...(fields.publisher === undefined ? {} : { publisher: fields.publisher }),
  };
}

const DOAJ_PAGE = /^https?:\/\/doaj\.org\/toc\/([0-9a-z-]+)\/?$/i;
const DOAJ_START = 'when did the journal start to publish all content using an open license?';

/** DOAJ's journal CSV (the columns are its header's, lower case). */
export const DOAJ_CSV: CsvLayout = {
  label: 'DOAJ journal CSV',
  kind: 'source_titles',
  required: ['journal title', 'url in doaj', 'journal issn (print version)', 'journal eissn (online version)'],
  map(row) {
    const page = cell(row, 'url in doaj') ?? '';
    const key = DOAJ_PAGE.exec(page)?.[1]?.toLowerCase();
    if (key === undefined)
      throw new MalformedRecord(`a DOAJ row without the link to its DOAJ page (${page || 'empty'})`);
    const sealed = cell(row, 'doaj seal')?.toLowerCase() === 'yes';
    return titleFields(`doaj:${key}`, cell(row, 'journal title'), {
      print: cell(row, 'journal issn (print version)'),
      electronic: cell(row, 'journal eissn (online version)'),
      linkout: cell(row, 'journal url'),
      publisher: cell(row, 'publisher'),
      startYear: yearOf(cell(row, DOAJ_START)),
      lists: sealed ? ['DOAJ', 'DOAJ Seal'] : ['DOAJ'],
    });
  },
};

/** The header cell of Crossref's coverage column starts so: `(year1)[volume1]issue1,...`. */
const COVERAGE = /^\(year1\)/;

/** The earliest year of a Crossref coverage string: `(2003)[9]1,2(2004)[10]1` → 2003. */
function earliestYear(coverage: string | undefined): number | undefined {
  const years = [...(coverage ?? '').matchAll(/\((\d{4})\)/g)].map((m) => Number(m[1]));
  return years.length === 0 ? undefined : yearOf(String(Math.min(...years)));
}

/** Crossref's title list (`titleFile.csv`). */
export const CROSSREF_TITLES: CsvLayout = {
  label: 'Crossref title list',
  kind: 'source_titles',
  required: ['journaltitle', 'journalid', 'pissn', 'eissn'],
  map(row) {
    const journalId = cell(row, 'journalid');
    if (journalId === undefined || !/^\d+$/.test(journalId))
      throw new MalformedRecord(`a Crossref title row without a numeric JournalID (${journalId ?? 'empty'})`);
    const coverage = Object.keys(row).find((name) => COVERAGE.test(name));
    const doi = cell(row, 'doi');
    return titleFields(`crossref:${journalId}`, cell(row, 'journaltitle'), {
      print: cell(row, 'pissn'),
      electronic: cell(row, 'eissn'),
      more: (cell(row, 'additionalissns') ?? '').split(/[;,\s]+/),
      linkout: doi === undefined ? undefined : `https://doi.org/${doi}`,
      publisher: cell(row, 'publisher'),
      startYear: earliestYear(coverage === undefined ? undefined : cell(row, coverage)),
    });
  },
};
