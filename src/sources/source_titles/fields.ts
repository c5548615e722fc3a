/**
 * The field table of `source_titles` (spec/schema-2026.md §7.10): the journals, book series,
 * proceedings and preprint platforms publications appear in, with the hosted service's
 * descriptions completed where they say where a value comes from. `sjr` and `snip` have no
 * openly licensed source: they are null unless a user imports them (`title-metrics`), and
 * their descriptions say so, as `describe source source_titles` shows them.
 */
import type { SourceTable } from '../../model/field-table.ts';

/** The values of `type` (spec/schema-2026.md §7.10: four in total). */
export const SOURCE_TITLE_TYPES = ['journal', 'book_series', 'proceeding', 'preprint_platform'] as const;
export type SourceTitleType = (typeof SOURCE_TITLE_TYPES)[number];

export const SOURCE_TITLES = {
  description: 'Journals, book series, proceedings and preprint platforms that publications appear in.',
  fields: [
    ['id', 'string', 'f', 'Quarry identifier of the source title.'],
    [
      'issn',
      'string',
      'fm',
      'List of known ISSNs for the source title, including both print and electronic (and the linking ISSN).',
    ],
    ['issn_electronic', 'string', 'f', 'Electronic ISSN for the source title.'],
    ['issn_print', 'string', 'f', 'Print ISSN for the source title.'],
    [
      'journal_lists',
      'string',
      'fcm',
      "Independent groupings of journals the source title belongs to, e.g. 'DOAJ' (the Directory of Open Access Journals).",
    ],
    ['linkout', 'string', '', 'The source title web URL, if known.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    [
      'sjr',
      'float',
      'f',
      'SJR indicator (SCImago Journal Rank): citations received weighted by the prestige of the citing journals. No open source publishes it: null unless imported from a title-metrics file (generated data makes up its own).',
    ],
    [
      'snip',
      'float',
      'f',
      'SNIP indicator (source normalized impact per paper): the average citation impact of the publications of a journal, normalized by field. No open source publishes it: null unless imported from a title-metrics file (generated data makes up its own).',
    ],
    ['start_year', 'integer', 'fc', 'Year when the source title started publishing (or the earliest year known).'],
    ['title', 'string', '', 'The title of the source title.'],
    [
      'type',
      'string',
      'fc',
      `The source title type: one of ${SOURCE_TITLE_TYPES.map((t) => `\`${t}\``).join(', ')} (4 in total).`,
    ],
  ],
  removedInV2: [],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given.',
      fields: ['id', 'title', 'type', 'issn', 'start_year'],
    },
  ],
  searchIndexes: [{ name: 'title_only', description: 'Titles.' }],
  defaultIndex: 'title_only',
  indicators: ['count'],
  // Alphabetical, as a list of journals reads.
  defaultOrder: { field: 'title', direction: 'asc' },
} as const satisfies SourceTable;
