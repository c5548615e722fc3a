/**
 * What `finish()` computes once the records are in: values that depend on other records
 * (citation counts, researcher totals, the places named by the organizations), the
 * per-year functions' pre-aggregates (`per-year-tables.ts`), the facet
 * shortcuts (`n_publications`, ...), the entity lists of places, the indexes a bulk load
 * dropped and the posting lists it left, a merged full-text index and the planner's statistics.
 */
import { availableParallelism } from 'node:os';
import type { Database } from 'better-sqlite3';
import {
  FULLTEXT_TABLES,
  fullTextTables,
  LINK_TABLES,
  namedEntityTables,
  postingLinks,
  resolvedIdColumns,
  type LinkTableSpec,
} from '../../model/storage.ts';
import { REFERENCES } from '../per-year-tables.ts';
import { PUBLICATION_JOURNAL_VALUES_SQL } from '../source-title-merge.ts';
import { TITLE_METRICS_SQL } from '../title-metrics.ts';
import {
  CITED_COUNTS,
  UNNAMED_COUNTRIES_SQL,
  countryName,
  placeValuesFillSql,
  type CitedCounts,
} from '../record-derived.ts';
import {
  RELATIONSHIPS_SQL,
  heldRelationships,
  organizationHierarchies,
  type HeldRelationshipRow,
} from '../organization-hierarchy.ts';
import { refreshNarrowTables } from './narrow-tables.ts';
import { countCitations, refreshCitations, refreshFundingByYear, type CountedCitations } from './per-year-tables.ts';
import { compactInsertedTrees, rewriteInKeyOrder } from './full-pages.ts';
import { startFullTextMerge, type MergeOutcome } from './full-text-merge.ts';
import {
  listsTurnedAround,
  markPostingsFresh,
  ownerCountSql,
  ownersOf,
  postingLinksListedByRecord,
  postingsStale,
  rebuildPostingsOf,
  replacePostingsOf,
  turnedEntries,
  type TurnedLists,
} from './posting-lists.ts';
import { RECORD_INDEXES, refreshValueCounts } from './records-schema.ts';
import { UNPACK_FUNCTION } from './text-dictionaries.ts';

/**
 * The source tables whose rows `finish()` grows in place (the researcher totals, a grant's
 * funding organization): the first `finish()` after a bulk load rewrites them in key order.
 * Not `publications`: generated and imported records carry their citation counts, and
 * rewriting 785 MiB of rows (at 1M) would cost more than the room it gives back.
 */
const GROWN_BY_FINISH = ['researchers', 'grants'] as const;

export interface FinishOptions {
  /**
   * First year counted by `recent_citations` (citations "from the last two years");
   * default: last calendar year (UTC).
   */
  readonly recentSince?: number;
  /** Merge every full-text index into one segment (default true; slow on huge tables). */
  readonly optimize?: boolean;
  /** Run ANALYZE (default true). */
  readonly analyze?: boolean;
  /**
   * Rebuild the B-trees the load filled row by row before the secondary indexes are built
   * (default false; the store asks for it on the first `finish()` after a bulk load). See
   * `compactInsertedTrees`.
   */
  readonly compact?: boolean;
  /**
   * Entries held in memory at most, per table, where `finish()` turns lists by record around
   * (4 bytes a key) and counts citations per year (6 bytes a row): default 32M, about 128 and
   * 192 MiB. Past it, the lists are turned around after the full-text merge instead of beside
   * it, `inMemoryEntries` keys a pass, and the citations are grouped by SQLite (slower, in less
   * memory).
   */
  readonly inMemoryEntries?: number;
  /** Progress notes, one per step. */
  readonly onStep?: (step: string, ms: number) => void;
}

export interface FinishReport {
  /** Milliseconds per step, in order. */
  readonly steps: readonly { readonly step: string; readonly ms: number }[];
  /** Where the full-text merge ran (`full-text-merge.ts`); absent when it did not run. */
  readonly merge?: MergeOutcome;
  /**
   * The link tables whose lists were turned around in memory in one range, beside the merge;
   * those of a stale database's lists by record left out were turned around after it, one
   * range of keys a pass.
   */
  readonly turnedInMemory: readonly string[];
  /** How the citations were summed: counted in memory, or grouped by SQLite (`refreshCitations`). */
  readonly citations: 'counted' | 'grouped';
}

/** Runs every derivation step; each step is its own transaction. */
export function deriveAll(db: Database, options: FinishOptions = {}): FinishReport {
  const steps: { step: string; ms: number }[] = [];
  const run = (step: string, fn: () => void, transactional = true): void => {
    const started = performance.now();
    if (transactional) db.transaction(fn)();
    else fn();
    const ms = Math.round(performance.now() - started);
    steps.push({ step, ms });
    options.onStep?.(step, ms);
  };
  const sorting = setPragmas(db, {
    // Index builds and the GROUP BYs here sort millions of rows: SQLite may spread each sort
    // over helper threads (at 1M, finish() took 134 s instead of 154 s on 2 cores).
    threads: Math.min(4, availableParallelism()),
    // SQLite's sorter keeps as much in memory as the page cache holds before it writes a
    // sorted run out. With the writer's large cache each index build sorted one huge run in one
    // thread; with a small one the helper threads sort the runs while the table is read.
    cache_size: -SORTING_CACHE_KIB,
  });
  try {
    return deriveSteps(db, options, run, steps);
  } finally {
    sorting.restore();
  }
}

/** Sets the connection's pragmas `settings`; `restore()` puts back the values they had. */
function setPragmas(db: Database, settings: Readonly<Record<string, number>>): { restore(): void } {
  const before = Object.keys(settings).map((name) => [name, db.pragma(name, { simple: true }) as number] as const);
  for (const [name, value] of Object.entries(settings)) db.pragma(`${name} = ${value}`);
  return {
    restore() {
      for (const [name, value] of before) db.pragma(`${name} = ${value}`);
    },
  };
}

/**
 * The page cache of `finish()`, in KiB: the size of each sorted run of an index build or a
 * GROUP BY. Measured on a 1M bulk load, the same file each time (2026-11-27, 2 cores): the
 * whole finish() took 101.2 s with the writer's 256 MiB cache, 82.6 s with 16 MiB, 79.3 and
 * 80.8 s with 4 MiB (two runs) and 78.2 s with 1 MiB. With 4 MiB the steps that sort: index
 * builds 27.2 → 14.6 s, posting lists 19.1 → 13.9–14.6 s, compaction 14.5 → 11.7–12.9 s,
 * citations by year 7.4 → 5.2–5.6 s; the others within run-to-run noise (citing years 6.7 →
 * 6.3 and 8.2 s, the full-text merge 11.1 → 11.1 and 11.7 s). The file came out the same size.
 */
export const SORTING_CACHE_KIB = 4096;

function deriveSteps(
  db: Database,
  options: FinishOptions,
  run: (step: string, fn: () => void, transactional?: boolean) => void,
  steps: { step: string; ms: number }[],
): FinishReport {
  // The last two calendar years (this one and the one before), as citation services count
  // "recent"; generated records carry their own counts, so this applies to imported data.
  const since = options.recentSince ?? new Date().getUTCFullYear() - 1;
  const budget = options.inMemoryEntries;

  // The places of a record's organizations are not stored per record: they are read
  // through its organization links (`readThrough` in model/storage.ts).
  run('places', () => derivePlaces(db));
  // Built where a reverse index would be: after a bulk load, from every link row at once.
  // Those grouped by SQLite now, before the compaction, which fills the pages of the lists kept
  // by text value (the researcher totals below read two of them); those of the link tables kept
  // as lists by record (references, concepts: integer values, written in key order) are turned
  // around in memory beside the full-text merge, and written after it.
  const listsBehind = postingsStale(db);
  const turnedLater = listsBehind ? postingLinksListedByRecord(db) : [];
  run('posting lists', () => {
    if (!listsBehind) return;
    for (const link of postingLinks())
      if (!turnedLater.some((t) => t.table === link.table)) rebuildPostingsOf(db, link);
  });
  // The rows these steps grow were written by the load: before the compaction, which
  // rewrites them (and reads the posting lists, but no secondary index).
  run('researcher totals', () => deriveResearchers(db));
  run('grant funding organizations', () => {
    // The funding organization's display fields, where the grant record did not carry them.
    db.exec(`UPDATE grants SET
        funding_org_name = coalesce(funding_org_name, (SELECT o.name FROM organizations o WHERE o.id = grants.funding_org_id)),
        funding_org_acronym = coalesce(funding_org_acronym, (SELECT o.acronym FROM organizations o WHERE o.id = grants.funding_org_id)),
        funding_org_city = coalesce(funding_org_city, (SELECT o.city_name FROM organizations o WHERE o.id = grants.funding_org_id))
      WHERE funding_org_id IS NOT NULL AND (funding_org_name IS NULL OR funding_org_acronym IS NULL OR funding_org_city IS NULL)`);
  });
  if (options.compact === true) {
    run('compact', () => {
      for (const table of GROWN_BY_FINISH) rewriteInKeyOrder(db, table);
      compactInsertedTrees(db);
    });
  }
  // Before the indexes: merging writes the one new segment and then frees the pages of the
  // old ones, and the index builds take those pages (merged last, they stayed on the free
  // list: 44 MiB of the 1M database's file). The merge runs on a second connection, in a worker
  // thread, while this one only reads: it turns the lists by record around and counts the
  // citations per year from the references' lists (written and used by the steps after it).
  const turned = new Map<LinkTableSpec, TurnedLists | undefined>();
  // Counted beside the merge; null where the counting declined (past its budget), so that the
  // citations step groups them at once instead of counting again.
  let counted: CountedCitations | null | undefined;
  let merged: MergeOutcome | undefined;
  const turnedInMemory: string[] = [];
  let citations: 'counted' | 'grouped' = 'grouped';
  run(
    options.optimize === false ? 'posting lists turned around' : 'full-text merge',
    () => {
      const merge = options.optimize === false ? undefined : startFullTextMerge(db, { cacheKib: SORTING_CACHE_KIB });
      try {
        db.transaction(() => {
          for (const link of turnedLater) turned.set(link, listsTurnedAround(db, link, budget));
          const references = [...turned].find(([link]) => link.table === REFERENCES.table)?.[1];
          // From the table where the lists are fresh; not at all where they are behind and were not turned around.
          if (!listsBehind || references !== undefined)
            counted =
              countCitations(db, {
                budget,
                ...(references === undefined ? {} : { lists: turnedEntries(references) }),
              }) ?? null;
        })();
      } finally {
        merged = merge?.wait();
      }
    },
    false,
  );
  run('posting lists written', () => {
    for (const link of turnedLater) {
      const lists = turned.get(link);
      if (lists === undefined) rebuildPostingsOf(db, link, budget);
      else {
        replacePostingsOf(db, link, lists);
        turnedInMemory.push(link.table);
      }
    }
    turned.clear();
    if (listsBehind) markPostingsFresh(db);
  });
  run('indexes', () => {
    for (const index of RECORD_INDEXES) db.exec(index.sql);
    setFullTextMerging(db, true);
  });
  // After the indexes: each is a lookup of the index of the column matched, or of the entity ids.
  run('resolved ids', () => resolveIds(db));
  run('named entities', () => {
    for (const named of namedEntityTables()) for (const statement of named.fill) db.exec(statement);
  });
  // One pass over the references gives citations per (cited publication, citing year): the
  // citation counts and the per-year tables are both summed from it (counted from the posting
  // lists built above, or grouped by SQLite where they cannot be).
  run('citations', () => {
    citations = refreshCitations(db, { recentSince: since, budget, counted });
    counted = undefined;
  });
  // Of the other sources that cite their own kind (patents), from their references' lists.
  run('citation counts', () => {
    for (const counts of CITED_COUNTS) db.exec(citedCountsSql(counts));
  });
  run('funding by year', () => refreshFundingByYear(db));
  // After the citation counts: the narrow tables copy them.
  run('narrow tables', () => refreshNarrowTables(db, RECORD_INDEXES));
  // After the indexes: each organization's counts are read by the links' reverse indexes.
  run('organization totals', () => deriveOrganizations(db));
  run('organization hierarchy', () => deriveOrganizationHierarchy(db));
  run('source title totals', () => {
    db.exec(
      'UPDATE source_titles SET n_publications = (SELECT COUNT(*) FROM publications p WHERE p.journal_id = source_titles.id)',
    );
  });
  // Before the value counts: they count these rows too.
  run('publication journal values', () => db.exec(PUBLICATION_JOURNAL_VALUES_SQL));
  run('source title metrics', () => db.exec(TITLE_METRICS_SQL));
  run('value counts', () => refreshValueCounts(db));
  run('meta', () => {
    const save = db.prepare(
      'INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    save.run('recent_since', String(since));
    save.run('finished_at', new Date().toISOString());
  });
  if (options.analyze !== false) {
    run(
      'analyze',
      () => {
        db.pragma('analysis_limit = 2000');
        db.exec('ANALYZE');
      },
      false,
    );
  }
  run(
    'checkpoint',
    () => {
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    false,
  );
  return { steps, turnedInMemory, citations, ...(merged === undefined ? {} : { merge: merged }) };
}

/**
 * Sets FTS5's merging for a bulk load (`on = false`) or for normal use (`on = true`).
 * During a bulk load segments pile up cheaply (no incremental or crisis merges) and
 * `finish()` merges them once; a 64 MiB in-memory buffer keeps the segments few and large.
 * These settings are stored in the FTS table, so every open that is not a bulk load turns
 * merging back on.
 */
export function setFullTextMerging(db: Database, on: boolean): void {
  // Literals, not bound values: FTS5 refuses bound values for these commands.
  const settings = on ? { automerge: 4, crisismerge: 16 } : { automerge: 0, crisismerge: 4000 };
  for (const f of FULLTEXT_TABLES.flatMap(fullTextTables)) {
    db.exec(`INSERT INTO ${f.table} (${f.table}, rank) VALUES ('automerge', ${settings.automerge})`);
    db.exec(`INSERT INTO ${f.table} (${f.table}, rank) VALUES ('crisismerge', ${settings.crisismerge})`);
    db.exec(`INSERT INTO ${f.table} (${f.table}, rank) VALUES ('hashsize', ${64 * 1024 * 1024})`);
  }
}

/** A link table of the layout, by name. */
function linkTable(table: string): LinkTableSpec {
  const link = LINK_TABLES.find((l) => l.table === table);
  if (link === undefined) throw new Error(`no link table ${table}`);
  return link;
}

/** Held-record counts (facet shortcuts) and, where the records lack them, totals and years. */
function deriveResearchers(db: Database): void {
  // The researcher's records are read by value: from the posting lists where the table has them.
  const publications = linkTable('publication_researchers');
  const grants = linkTable('grant_researchers');
  const ofPublications = ownersOf(publications, 'researchers.id');
  const ofGrants = ownersOf(grants, 'researchers.id');
  db.exec(`UPDATE researchers SET
      n_publications = ${ownerCountSql(publications, 'researchers.id')},
      n_grants = ${ownerCountSql(grants, 'researchers.id')}`);
  db.exec(`UPDATE researchers SET total_publications = n_publications WHERE total_publications IS NULL`);
  db.exec(`UPDATE researchers SET total_grants = n_grants WHERE total_grants IS NULL`);
  const year = (fn: string, column: string, table: string, owners: ReturnType<typeof ownersOf>): string =>
    `(SELECT ${fn}(r.${column}) FROM ${owners.from} JOIN ${table} r ON r.pk = ${owners.owner} WHERE ${owners.where})`;
  db.exec(`UPDATE researchers SET
      first_publication_year = coalesce(first_publication_year, ${year('MIN', 'year', 'publications', ofPublications)}),
      last_publication_year = coalesce(last_publication_year, ${year('MAX', 'year', 'publications', ofPublications)})
    WHERE n_publications > 0 AND (first_publication_year IS NULL OR last_publication_year IS NULL)`);
  db.exec(`UPDATE researchers SET
      first_grant_year = coalesce(first_grant_year, ${year('MIN', 'start_year', 'grants', ofGrants)}),
      last_grant_year = coalesce(last_grant_year, ${year('MAX', 'start_year', 'grants', ofGrants)})
    WHERE n_grants > 0 AND (first_grant_year IS NULL OR last_grant_year IS NULL)`);
}

function deriveOrganizations(db: Database): void {
  const count = (table: string): string => ownerCountSql(linkTable(table), 'organizations.id');
  db.exec(`UPDATE organizations SET
      n_publications = ${count('publication_research_orgs')},
      n_grants = ${count('grant_research_orgs')},
      n_funded_publications = ${count('publication_funders')},
      n_funded_grants = ${count('grant_funders')}`);
}

/** `ultimate_parent_id` and `hierarchy_details` of every organization (`organization-hierarchy.ts`). */
function deriveOrganizationHierarchy(db: Database): void {
  const rows = db.prepare<[], HeldRelationshipRow>(RELATIONSHIPS_SQL).all();
  const write = db.prepare<[{ id: string; top: string; details: string }]>(
    // Only the rows that changed: a finish after a small import rewrites few of them.
    `UPDATE organizations SET ultimate_parent_id = @top, hierarchy_details = @details
      WHERE id = @id AND (ultimate_parent_id IS NOT @top OR hierarchy_details IS NOT @details)`,
  );
  for (const [id, h] of organizationHierarchies(heldRelationships(rows)))
    write.run({ id, top: h.ultimate_parent_id, details: JSON.stringify(h.hierarchy_details) });
}

/**
 * `times_cited` of a source's records that do not carry it: the held records of its kind whose
 * references name it, counted from the cited id's posting list where the table keeps them.
 */
function citedCountsSql({ table, references }: CitedCounts): string {
  const { interned } = references;
  const key = `(SELECT v.id FROM ${interned.table} v WHERE v.${interned.column} = ${table}.id)`;
  return `UPDATE ${table} SET times_cited = ${ownerCountSql(references, key)} WHERE times_cited IS NULL`;
}

/**
 * The id columns records left empty, from the held records they name (`resolvedIdColumns`:
 * a dataset's publication, found by its DOI), and the `id` of the document's object naming
 * it. The document is written back as text (`packed-text.ts` reads text and packed values
 * alike); the first id in order when two records match.
 */
function resolveIds(db: Database): void {
  for (const r of resolvedIdColumns()) {
    const found = `(SELECT t.id FROM ${r.target} t WHERE t.${r.match} = ${r.table}.${r.by} ORDER BY t.id LIMIT 1)`;
    const text = `${UNPACK_FUNCTION}(doc)`;
    const doc =
      r.object === undefined
        ? 'doc'
        : `CASE WHEN json_type(${text}, '$.${r.object}') = 'object' THEN json_set(${text}, '$.${r.object}.id', ${found}) ELSE doc END`;
    db.exec(
      `UPDATE ${r.table} SET ${r.column} = ${found}, doc = ${doc} WHERE ${r.column} IS NULL AND ${r.by} IS NOT NULL` +
        ` AND EXISTS (SELECT 1 FROM ${r.target} t WHERE t.${r.match} = ${r.table}.${r.by})`,
    );
  }
}

/**
 * Countries, cities and states named by the organizations, then those records name as
 * values (`placeValuesFillSql`), for facet display names.
 */
function derivePlaces(db: Database): void {
  db.exec('DELETE FROM countries; DELETE FROM cities; DELETE FROM states;');
  db.exec(`INSERT INTO countries (id, name)
    SELECT country_code, MAX(country_name) FROM organizations WHERE country_code IS NOT NULL GROUP BY country_code`);
  db.exec(`INSERT INTO cities (id, name, country_code)
    SELECT coalesce(city_id, city_name), MAX(city_name), MAX(country_code) FROM organizations
    WHERE coalesce(city_id, city_name) IS NOT NULL GROUP BY coalesce(city_id, city_name)`);
  db.exec(`INSERT INTO states (id, name, country_code)
    SELECT state_code, MAX(state_name), MAX(country_code) FROM organizations WHERE state_code IS NOT NULL GROUP BY state_code`);
  for (const sql of placeValuesFillSql()) db.exec(sql);
  const name = db.prepare<[string, string]>('UPDATE countries SET name = ? WHERE id = ?');
  for (const id of db.prepare<[], string>(UNNAMED_COUNTRIES_SQL).pluck().all()) {
    const named = countryName(id);
    if (named !== undefined) name.run(named, id);
  }
}
