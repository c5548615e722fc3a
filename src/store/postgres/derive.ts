/**
 * `finish()` for PostgreSQL: the same derived data as SQLite's (`../sqlite/derive.ts`:
 * citation counts, the per-year pre-aggregates, researcher and organization totals, places,
 * the organization-derived values of publications and grants), then the indexes a bulk load left out, each source's
 * word list (for wildcard patterns), the visibility map and the planner's statistics.
 */
import type pg from 'pg';
import { MAIN_VECTOR, PG_FULLTEXT } from '../../model/postgres-full-text.ts';
import { namedEntityTables, resolvedIdColumns } from '../../model/storage.ts';
import {
  RELATIONSHIPS_SQL,
  heldRelationships,
  organizationHierarchies,
  type HeldRelationshipRow,
} from '../organization-hierarchy.ts';
import { PG_NARROW_INDEXES, pgNarrowFillSql, pgNarrowTables } from './narrow-tables.ts';
import {
  PG_CITING_YEARS,
  pgCreateCitingYearsSql,
  pgRefreshCitationsSql,
  pgRefreshFundingSql,
} from './per-year-tables.ts';
import { PG_RECORD_INDEXES, pgValueCountsRefreshSql } from './records-schema.ts';
import { PUBLICATION_JOURNAL_VALUES_SQL } from '../source-title-merge.ts';
import { TITLE_METRICS_SQL } from '../title-metrics.ts';
import {
  CITED_COUNTS,
  UNNAMED_COUNTRIES_SQL,
  citedCountsGroupedSql,
  countryName,
  placeValuesFillSql,
} from '../record-derived.ts';

export interface PgFinishOptions {
  /** First year counted by `recent_citations`; default last calendar year (UTC). */
  readonly recentSince?: number;
  readonly onStep?: (step: string, ms: number) => void;
}

export interface PgFinishReport {
  readonly steps: readonly { readonly step: string; readonly ms: number }[];
}

export async function derivePg(client: pg.PoolClient, options: PgFinishOptions = {}): Promise<PgFinishReport> {
  const steps: { step: string; ms: number }[] = [];
  const since = options.recentSince ?? new Date().getUTCFullYear() - 1;
  const run = async (step: string, statements: readonly string[], params: readonly unknown[][] = []): Promise<void> => {
    const started = performance.now();
    await client.query('BEGIN');
    try {
      for (const [k, sql] of statements.entries()) await client.query(sql, params[k] ?? []);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    const ms = Math.round(performance.now() - started);
    steps.push({ step, ms });
    options.onStep?.(step, ms);
  };

  await run('places', [
    'DELETE FROM countries',
    'DELETE FROM cities',
    'DELETE FROM states',
    `INSERT INTO countries (id, name)
      SELECT country_code, MAX(country_name) FROM organizations WHERE country_code IS NOT NULL GROUP BY country_code`,
    `INSERT INTO cities (id, name, country_code)
      SELECT coalesce(city_id, city_name), MAX(city_name), MAX(country_code) FROM organizations
      WHERE coalesce(city_id, city_name) IS NOT NULL GROUP BY coalesce(city_id, city_name)`,
    `INSERT INTO states (id, name, country_code)
      SELECT state_code, MAX(state_name), MAX(country_code) FROM organizations WHERE state_code IS NOT NULL GROUP BY state_code`,
    ...placeValuesFillSql(),
  ]);
  const unnamed = (await client.query<{ id: string }>(UNNAMED_COUNTRIES_SQL)).rows.flatMap(({ id }) => {
    const name = countryName(id);
    return name === undefined ? [] : [[name, id]];
  });
  await run(
    'country names',
    unnamed.map(() => 'UPDATE countries SET name = $1 WHERE id = $2'),
    unnamed,
  );
  await run(
    'indexes',
    PG_RECORD_INDEXES.map((i) => i.sql),
  );
  // The id columns records left empty, from the held records they name (a dataset's
  // publication, by its DOI), with the `id` of the document's object naming it; the first id
  // in order when two records match, as SQLite's. The document is rebuilt key by key in its
  // order, the `id` last, as SQLite's `json_set` gives it (`jsonb_set` would reorder every
  // object of it, and a page would show its keys in another order than SQLite's).
  await run(
    'resolved ids',
    resolvedIdColumns().map((r) => {
      const object =
        `(SELECT json_object_agg(o.k, o.v ORDER BY o.n) FROM (SELECT k, v, n FROM json_each(e.v) WITH ORDINALITY x(k, v, n) ` +
        `UNION ALL SELECT 'id', to_json(t.id), 2147483647) o)`;
      const doc =
        r.object === undefined
          ? 'd.doc'
          : `CASE WHEN json_typeof(d.doc -> '${r.object}') = 'object' THEN ` +
            `(SELECT json_object_agg(e.k, CASE WHEN e.k = '${r.object}' THEN ${object} ELSE e.v END ORDER BY e.n) ` +
            `FROM json_each(d.doc) WITH ORDINALITY e(k, v, n)) ELSE d.doc END`;
      return (
        `UPDATE ${r.table} d SET ${r.column} = t.id, doc = ${doc} ` +
        `FROM (SELECT DISTINCT ON (t.${r.match}) t.${r.match} AS matched, t.id FROM ${r.target} t ` +
        `JOIN ${r.table} x ON x.${r.by} = t.${r.match} WHERE x.${r.column} IS NULL ORDER BY t.${r.match}, t.id) t ` +
        `WHERE d.${r.column} IS NULL AND d.${r.by} = t.matched`
      );
    }),
  );
  await run(
    'named entities',
    namedEntityTables().flatMap((named) => named.fill),
  );
  // One pass over the references gives citations per (cited id, citing year): the
  // citation counts and the per-year tables are both summed from it.
  await run(
    'citations',
    [
      pgCreateCitingYearsSql,
      `UPDATE publications p SET
         times_cited = coalesce(p.times_cited, c.n, 0),
         recent_citations = coalesce(p.recent_citations, c.recent, 0)
       FROM (SELECT pub.id, sum(y.n) AS n, sum(y.n) FILTER (WHERE coalesce(y.year, 0) >= $1) AS recent
             FROM publications pub
             LEFT JOIN ${PG_CITING_YEARS} y ON y.id = pub.id
             WHERE pub.times_cited IS NULL OR pub.recent_citations IS NULL
             GROUP BY pub.id) c
       WHERE c.id = p.id`,
      ...pgRefreshCitationsSql(),
    ],
    [[], [since]],
  );
  // Of the other sources that cite their own kind (patents).
  await run('citation counts', CITED_COUNTS.map(citedCountsGroupedSql));
  await run('funding by year', pgRefreshFundingSql());
  await run('researcher totals', [
    `UPDATE researchers r SET n_publications = coalesce(c.n, 0) FROM researchers r2
       LEFT JOIN (SELECT researcher_id, count(*) AS n FROM publication_researchers GROUP BY researcher_id) c ON c.researcher_id = r2.id
       WHERE r2.pk = r.pk`,
    `UPDATE researchers r SET n_grants = coalesce(c.n, 0) FROM researchers r2
       LEFT JOIN (SELECT researcher_id, count(*) AS n FROM grant_researchers GROUP BY researcher_id) c ON c.researcher_id = r2.id
       WHERE r2.pk = r.pk`,
    'UPDATE researchers SET total_publications = n_publications WHERE total_publications IS NULL',
    'UPDATE researchers SET total_grants = n_grants WHERE total_grants IS NULL',
    `UPDATE researchers r SET
       first_publication_year = coalesce(r.first_publication_year, y.lo), last_publication_year = coalesce(r.last_publication_year, y.hi)
       FROM (SELECT l.researcher_id, min(p.year) AS lo, max(p.year) AS hi FROM publication_researchers l JOIN publications p ON p.pk = l.publication_pk GROUP BY 1) y
       WHERE y.researcher_id = r.id AND (r.first_publication_year IS NULL OR r.last_publication_year IS NULL)`,
    `UPDATE researchers r SET
       first_grant_year = coalesce(r.first_grant_year, y.lo), last_grant_year = coalesce(r.last_grant_year, y.hi)
       FROM (SELECT l.researcher_id, min(g.start_year) AS lo, max(g.start_year) AS hi FROM grant_researchers l JOIN grants g ON g.pk = l.grant_pk GROUP BY 1) y
       WHERE y.researcher_id = r.id AND (r.first_grant_year IS NULL OR r.last_grant_year IS NULL)`,
  ]);
  const counted = (table: string): string => `(SELECT org_id, count(*) AS n FROM ${table} GROUP BY org_id)`;
  await run('organization totals', [
    `UPDATE organizations o SET
       n_publications = coalesce(a.n, 0), n_grants = coalesce(b.n, 0),
       n_funded_publications = coalesce(c.n, 0), n_funded_grants = coalesce(d.n, 0)
     FROM organizations o2
       LEFT JOIN ${counted('publication_research_orgs')} a ON a.org_id = o2.id
       LEFT JOIN ${counted('grant_research_orgs')} b ON b.org_id = o2.id
       LEFT JOIN ${counted('publication_funders')} c ON c.org_id = o2.id
       LEFT JOIN ${counted('grant_funders')} d ON d.org_id = o2.id
     WHERE o2.pk = o.pk`,
  ]);
  // The walk runs here (store/organization-hierarchy.ts), as on SQLite; one statement writes back
  // the rows that changed (a finish after a small import rewrites few of the wide rows).
  const hierarchy = organizationHierarchies(
    heldRelationships((await client.query<HeldRelationshipRow>(RELATIONSHIPS_SQL)).rows),
  );
  await run(
    'organization hierarchy',
    [
      `UPDATE organizations o SET ultimate_parent_id = h.top, hierarchy_details = h.details
       FROM unnest($1::text[], $2::text[], $3::text[]) AS h(id, top, details)
       WHERE o.id = h.id AND (o.ultimate_parent_id IS DISTINCT FROM h.top OR o.hierarchy_details IS DISTINCT FROM h.details)`,
    ],
    [
      [
        [...hierarchy.keys()],
        [...hierarchy.values()].map((h) => h.ultimate_parent_id),
        [...hierarchy.values()].map((h) => JSON.stringify(h.hierarchy_details)),
      ],
    ],
  );
  await run('grant funding organizations', [
    `UPDATE grants g SET
       funding_org_name = coalesce(g.funding_org_name, o.name),
       funding_org_acronym = coalesce(g.funding_org_acronym, o.acronym),
       funding_org_city = coalesce(g.funding_org_city, o.city_name)
     FROM organizations o
     WHERE o.id = g.funding_org_id AND (g.funding_org_name IS NULL OR g.funding_org_acronym IS NULL OR g.funding_org_city IS NULL)`,
  ]);
  await run('source title totals', [
    `UPDATE source_titles j SET n_publications = coalesce(c.n, 0) FROM source_titles j2
       LEFT JOIN (SELECT journal_id, count(*) AS n FROM publications GROUP BY journal_id) c ON c.journal_id = j2.id
       WHERE j2.pk = j.pk`,
  ]);
  await run('source title metrics', [TITLE_METRICS_SQL]);
  // Before the value counts: they count these rows too.
  await run('publication journal values', [PUBLICATION_JOURNAL_VALUES_SQL]);
  await run('value counts', pgValueCountsRefreshSql());
  // After the citation counts and totals: the narrow tables copy them. Their indexes are
  // dropped first and built after, one sort each instead of row by row.
  await run(
    'narrow tables',
    pgNarrowTables().flatMap(({ kind, narrow }) => {
      const own = PG_NARROW_INDEXES.filter((i) => i.name.startsWith(`${narrow.table}_`));
      return [
        ...own.map((i) => `DROP INDEX IF EXISTS ${i.name}`),
        `DELETE FROM ${narrow.table}`,
        pgNarrowFillSql(kind, narrow, 'ORDER BY s.pk'),
        ...own.map((i) => i.sql),
      ];
    }),
  );
  await run(
    'word lists',
    PG_FULLTEXT.flatMap((f) => [
      `DELETE FROM ${f.owner}_vocab`,
      `INSERT INTO ${f.owner}_vocab (word, ndoc) SELECT word, ndoc FROM ts_stat('SELECT ${MAIN_VECTOR} FROM ${f.owner}')`,
    ]),
  );
  await run(
    'meta',
    [
      `INSERT INTO store_meta (key, value) VALUES ('recent_since', $1), ('finished_at', $2)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    ],
    [[String(since), new Date().toISOString()]],
  );
  // VACUUM as well as ANALYZE: it sets the visibility map after the load, so counts and
  // facets over an indexed column read the index alone instead of every (wide) row.
  const started = performance.now();
  await client.query('VACUUM (ANALYZE)');
  const ms = Math.round(performance.now() - started);
  steps.push({ step: 'vacuum analyze', ms });
  options.onStep?.('vacuum analyze', ms);
  return { steps };
}
