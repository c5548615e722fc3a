/**
 * `finish()`'s step that gives source titles the journal metrics a user imported
 * (`title_metrics`, from a title-metrics file: docs/operations.md): each source title with
 * a row for any of its ISSNs (print, electronic, or listed) takes the `sjr` and `snip` of the
 * latest year among them. A title no row names keeps the values its own record gave (none,
 * from the open lists). SQL both engines run as written.
 */
import { SOURCE_TABLES, valueFieldCode } from '../model/storage.ts';

const titles = SOURCE_TABLES.source_titles.table;
const metrics = SOURCE_TABLES.title_metrics.table;

/** The statement: one update from the best row of each title (latest year, then the smaller ISSN). */
export const TITLE_METRICS_SQL = `WITH keys AS (
    SELECT pk, issn_print AS issn FROM ${titles} WHERE issn_print IS NOT NULL
    UNION SELECT pk, issn_electronic FROM ${titles} WHERE issn_electronic IS NOT NULL
    UNION SELECT source_title_pk, value FROM source_title_values WHERE field = '${valueFieldCode('issn')}'
  ), ranked AS (
    SELECT k.pk, m.sjr, m.snip,
           row_number() OVER (PARTITION BY k.pk ORDER BY m.year DESC NULLS LAST, m.issn) AS n
    FROM keys k JOIN ${metrics} m ON m.issn = k.issn
  )
  UPDATE ${titles} SET sjr = r.sjr, snip = r.snip FROM ranked r WHERE r.pk = ${titles}.pk AND r.n = 1`;
