/**
 * The source_titles source (spec/schema-2026.md §7.10): the journals, book series,
 * proceedings and preprint platforms publications appear in, declared once. It is also the
 * table behind two entity kinds: `source_titles` (publications' `source_title`) and the
 * `journals` of publications' and datasets' `journal` ({id, title}); both read this table,
 * which the journals Quarry held before the source existed became (docs/storage.md).
 *
 * A publication that names a journal Quarry holds no record of (`journal: {id, title}`) leaves
 * a row with the title alone, as journals always did; a record of the title, imported
 * before or after, replaces it.
 */
import { byFieldCode, i, r, t, valueKey } from '../../model/layout-parts.ts';
import { text, valueRows } from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';
import { SOURCE_TITLES } from './fields.ts';

/**
 * The stored codes of `source_title_values` fields: `issn` and `journal_lists` are the
 * publications' fields of the same name and keep their codes (one code a field).
 */
const VALUE_FIELD_CODES = { issn: '1', journal_lists: '5' };

export const sourceTitles = defineSource({
  name: 'source_titles',
  singular: 'source_title',
  refersTo: [],
  fieldTable: SOURCE_TITLES,
  importFormats: {
    doaj: "DOAJ's journal CSV (https://doaj.org/csv): journals of the Directory of Open Access Journals",
    'crossref-titles': "Crossref's title list (titleFile.csv): journal titles, ISSNs and DOI coverage",
    'title-metrics': 'SJR and SNIP of journals by ISSN, from a CSV you supply: issn,year,sjr,snip (docs/operations.md)',
  },
  requiredFields: [['title', 'string']],
  storage: {
    table: {
      table: 'source_titles',
      columns: [
        t('title'),
        t('type'),
        t('issn_print'),
        t('issn_electronic'),
        t('linkout'),
        i('start_year'),
        r('sjr'),
        r('snip'),
        // No field of the 2026 schema: kept from the journals' table, as their records give it.
        t('publisher'),
        // The publications naming it, counted by finish(): a whole-corpus `journal` facet reads it.
        i('n_publications'),
      ],
      indexes: [['title'], ['type'], ['start_year'], ['issn_print'], ['issn_electronic']],
    },
    links: [
      {
        table: 'source_title_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    fullText: {
      table: 'source_titles_fts',
      columns: ['title'],
      indexes: { title_only: ['title'] },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => ({ source_title_values: valueRows(record, VALUE_FIELD_CODES) }),
    fullText: (record) => [text(record['title'])],
  },
  entity: {
    description: 'A journal, book series, proceedings or preprint platform (see the source_titles source).',
    fields: [
      ['id', 'string', false, 'Source title identifier.'],
      ['issn', 'string', true, 'ISSNs, print and electronic.'],
      ['start_year', 'integer', false, 'Year the source title started publishing.'],
      ['title', 'string', false, 'Title.'],
      ['type', 'string', false, 'Type: journal, book_series, proceeding or preprint_platform.'],
    ],
    display: ['title'],
  },
});
