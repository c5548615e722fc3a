/**
 * The record store's writer over PostgreSQL: batches of native records go in with COPY, one
 * transaction per batch, so a killed import leaves every committed batch whole and nothing
 * of the batch in flight. Upserts by id, as the SQLite writer: a record imported again keeps
 * its `pk`, its row is updated and its link rows replaced, so re-running an interrupted
 * import resumes it (the records already in are rewritten, never duplicated).
 *
 * Per batch: the source rows are copied into a temporary staging table and upserted from it
 * (`INSERT ... SELECT ... ON CONFLICT (id) DO UPDATE`, computing the `tsvector` columns from
 * the staged texts), the batch's old link rows are deleted and the new ones copied straight
 * into the link tables.
 *
 * @example
 *   const writer = await openPgRecordWriter('postgres://postgres@127.0.0.1/quarry');
 *   await writer.writeBatch('publications', records);
 *   await writer.finish();
 *   await writer.close();
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { indexWords } from '../../model/index-words.ts';
import { MAIN_VECTOR, PG_NAME_GAP_WORD, pgFullTextOf, type PgFullText } from '../../model/postgres-full-text.ts';
import { declaredSource } from '../../model/sources.ts';
import {
  FULLTEXT_TABLES,
  fullTextColumns,
  LINK_TABLES,
  type LinkTableSpec,
  NAME_GAP,
  RECORD_KINDS,
  SOURCE_TABLES,
  ownerKey,
  type RecordKind,
} from '../../model/storage.ts';
import type { BatchCheckpoint, ImportRunState, RecordBatch } from '../record-writer.ts';
import { recordToRows, type RecordRows, type SqlValue } from '../rows.ts';
import { derivePg, type PgFinishOptions, type PgFinishReport } from './derive.ts';
import { beginImport, checkpointImport, endImport } from './import-journal.ts';
import { migratePostgres } from './migrate.ts';
import { linkOrganizationsPg, noteLinkPending } from './organization-links.ts';
import { openPgPool } from './pool.ts';
import { pgNarrowFillSql } from './narrow-tables.ts';
import { pgPerYearStaleSql } from './per-year-tables.ts';
import { PG_RECORD_INDEXES } from './records-schema.ts';
import {
  HELD_MERGES_SQL,
  MERGES_TABLE,
  planTitleMerge,
  TITLE_COLUMNS_SQL,
  TITLE_VALUES_SQL,
  titlesFromRows,
  type HeldMerge,
} from '../source-title-merge.ts';

export interface PgRecordWriter {
  /** Inserts or replaces one batch of records of a kind by id, in one transaction: all or none. */
  writeBatch(kind: RecordKind, records: readonly object[]): Promise<void>;
  /** Removes records by id (merged-away OpenAlex ids) with their link rows; the number removed. */
  remove(kind: RecordKind, ids: readonly string[]): Promise<number>;
  /** Starts an import-journal run over the inputs; its id. */
  begin(request: unknown, inputs: readonly string[]): Promise<number>;
  /** One batch (upserts, then removals) and its journal checkpoint in one transaction; the number removed per kind. */
  commit(run: number, batch: RecordBatch, checkpoint: BatchCheckpoint): Promise<Partial<Record<RecordKind, number>>>;
  end(run: number, state: Exclude<ImportRunState, 'running'>): Promise<void>;
  /** Derived data, indexes, word lists and statistics once everything is written. */
  finish(options?: PgFinishOptions): Promise<PgFinishReport>;
  close(): Promise<void>;
}

export interface PgRecordWriterOptions {
  /**
   * Drop the secondary indexes now and build them in `finish()` (much faster for a first
   * load). Default: only when the database holds no records yet.
   */
  readonly bulk?: boolean;
}

/** One value in COPY's text format. */
function copyValue(value: SqlValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '\\N';
  return value
    .replace(/\0/g, '')
    .replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  const chunks = function* (): Generator<string> {
    let chunk = '';
    for (const row of rows) {
      chunk += row.map(copyValue).join('\t') + '\n';
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk.length > 0) yield chunk;
  };
  await pipeline(Readable.from(chunks()), stream);
}

/**
 * The words of a source title named only by its title (a publication's `journal`), as its
 * record's full text would give them: source titles have one full-text column, the title.
 */
function titleIndexText(title: string): string {
  return pgIndexText((declaredSource('source_titles')?.rows.fullText?.({ title }) ?? [title]).join(' '));
}

/** The text PostgreSQL indexes for a full-text column: the words as every back end cuts them. */
export function pgIndexText(text: string): string {
  return indexWords(text.replaceAll(NAME_GAP, ` ${Array.from({ length: 8 }, () => PG_NAME_GAP_WORD).join(' ')} `)).join(
    ' ',
  );
}

/** Integer columns take integers only (SQLite would keep a stray `3.5` or `"n/a"`; here it is left out). */
function forColumn(type: string, value: SqlValue): SqlValue {
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value) ? value : null;
  if (type === 'real') return typeof value === 'number' ? value : null;
  return value === null ? null : String(value);
}

interface KindPlan {
  readonly kind: RecordKind;
  readonly table: string;
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  readonly fullText: PgFullText | undefined;
  /** The source's FTS column names, in `RecordRows.fullText` order. */
  readonly textColumns: readonly string[];
  readonly stage: string;
  readonly upsert: string;
}

function planFor(kind: RecordKind): KindPlan {
  const spec = SOURCE_TABLES[kind];
  const fullText = pgFullTextOf(kind);
  const text = FULLTEXT_TABLES.find((f) => f.owner === kind);
  const textColumns = text === undefined ? [] : fullTextColumns(text);
  const stage = `stage_${kind}`;
  const cols = spec.columns.map((c) => c.name);
  const vectors = (fullText?.vectors ?? []).map((v) => ({
    column: v.column,
    expr: v.parts.map((p) => `setweight(to_tsvector('simple', coalesce(t_${p.text}, '')), '${p.label}')`).join(' || '),
  }));
  const insertCols = ['id', ...cols, 'doc', ...vectors.map((v) => v.column)];
  const selectCols = ['id', ...cols, 'doc::json', ...vectors.map((v) => v.expr)];
  const upsert =
    `INSERT INTO ${spec.table} (${insertCols.join(', ')}) SELECT ${selectCols.join(', ')} FROM ${stage} ` +
    `ON CONFLICT (id) DO UPDATE SET ${insertCols
      .filter((c) => c !== 'id')
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(', ')} RETURNING id, pk`;
  return { kind, table: spec.table, columns: spec.columns, fullText, textColumns, stage, upsert };
}

/** Opens a writer on a migrated database (migrating it first). */
export async function openPgRecordWriter(url: string, options: PgRecordWriterOptions = {}): Promise<PgRecordWriter> {
  const pool = openPgPool(url, { max: 2, applicationName: 'quarry import' });
  try {
    // Every set: the records, and the import journal that commits with them.
    await migratePostgres(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const client = await pool.connect();
  // A failure here (a read-only standby, a lost server) must not leave the connection open.
  client.on('error', () => undefined);
  const plans = new Map<RecordKind, KindPlan>();
  try {
    const empty = (
      await client.query(
        'SELECT NOT EXISTS (SELECT 1 FROM publications) AND NOT EXISTS (SELECT 1 FROM grants) AS empty',
      )
    ).rows[0] as { empty: boolean };
    const bulk = options.bulk ?? empty.empty;
    // A bulk load builds the indexes once at the end; any other open restores them, so an
    // interrupted bulk load never leaves a database without them.
    for (const index of PG_RECORD_INDEXES) await client.query(bulk ? `DROP INDEX IF EXISTS ${index.name}` : index.sql);
    for (const kind of RECORD_KINDS) {
      const plan = planFor(kind);
      plans.set(kind, plan);
      const cols = plan.columns.map(
        (c) => `${c.name} ${c.type === 'integer' ? 'bigint' : c.type === 'real' ? 'double precision' : 'text'}`,
      );
      const texts = plan.textColumns.map((t) => `t_${t} text`);
      await client.query(
        `CREATE TEMP TABLE ${plan.stage} (id text, ${[...cols, 'doc text', ...texts].join(', ')}) ON COMMIT DELETE ROWS`,
      );
    }
  } catch (error) {
    client.release(true);
    await pool.end();
    throw error;
  }
  const knownJournals = new Set<string>();
  const knownCategories = new Set<string>();

  /** Per kind with a narrow table: the statement rewriting the narrow rows of some `pk`s. */
  const narrowFill = new Map(
    RECORD_KINDS.flatMap((kind) => {
      const narrow = SOURCE_TABLES[kind].narrow;
      return narrow === undefined
        ? []
        : [[kind, pgNarrowFillSql(kind, narrow, 'WHERE s.pk = ANY($1::bigint[])')] as const];
    }),
  );

  /** The vocabulary ids one transaction wrote: known once it commits. */
  interface Written {
    readonly journals: string[];
    readonly categories: string[];
  }

  /**
   * The vocabulary ids of the texts an interned link table's rows of `batch` name (at
   * `textAt` in each row), adding the texts the vocabulary lacks first.
   */
  async function internedIds(
    link: LinkTableSpec,
    batch: readonly RecordRows[],
    textAt: number,
  ): Promise<Map<string, number>> {
    const vocabulary = link.interned;
    if (vocabulary === undefined) throw new Error(`link table ${link.table} is not interned`);
    const texts = new Set<string>();
    for (const r of batch)
      for (const row of r.links.get(link.table) ?? []) {
        const text = row[textAt];
        if (text !== null && text !== undefined && text !== '') texts.add(String(text));
      }
    if (texts.size === 0) return new Map();
    const list = [...texts].sort();
    await client.query(
      `INSERT INTO ${vocabulary.table} (${vocabulary.column}) SELECT t FROM unnest($1::text[]) AS t ON CONFLICT DO NOTHING`,
      [list],
    );
    const found = await client.query<{ id: string; text: string }>(
      `SELECT id, ${vocabulary.column} AS text FROM ${vocabulary.table} WHERE ${vocabulary.column} = ANY($1::text[])`,
      [list],
    );
    return new Map(found.rows.map((r) => [r.text, Number(r.id)]));
  }

  /** Writes one kind's records inside the caller's transaction. */
  async function writeKind(kind: RecordKind, records: readonly object[], written: Written): Promise<void> {
    const plan = plans.get(kind);
    if (plan === undefined) throw new Error(`unknown record kind ${String(kind)}`);
    // A record given twice in one batch ends as its last version (as in SQLite).
    const byId = new Map<string, RecordRows>();
    for (const record of records) {
      const rows = recordToRows(kind, record);
      byId.delete(rows.id);
      byId.set(rows.id, rows);
    }
    if (byId.size === 0) return;
    // The records change: the source's per-year tables no longer hold until finish().
    const stale = pgPerYearStaleSql(kind);
    if (stale !== undefined) await client.query(stale);
    const batch = [...byId.values()];
    await copyRows(
      client,
      plan.stage,
      ['id', ...plan.columns.map((c) => c.name), 'doc', ...plan.textColumns.map((t) => `t_${t}`)],
      batch.map((r) => [
        r.id,
        ...r.columns.map((v, k) => forColumn(plan.columns[k]?.type ?? 'text', v)),
        r.doc,
        ...(r.fullText ?? []).map(pgIndexText),
      ]),
    );
    const upserted = await client.query<{ id: string; pk: number }>(plan.upsert);
    const pkOf = new Map(upserted.rows.map((r) => [r.id, Number(r.pk)]));
    const pks = [...pkOf.values()];
    // The records finish() links to the organizations they name by name (store/organization-links.ts).
    await noteLinkPending(client, kind, pks);
    const owner = ownerKey(kind);
    for (const link of LINK_TABLES.filter((l) => l.owner === kind)) {
      await client.query(`DELETE FROM ${link.table} WHERE ${owner} = ANY($1::bigint[])`, [pks]);
      const carried = (link.ownerColumns ?? []).map((name) => {
        const at = plan.columns.findIndex((c) => c.name === name);
        if (at < 0) throw new Error(`link table ${link.table}: no column ${name} in ${kind}`);
        return { name, at, type: plan.columns[at]?.type ?? 'text' };
      });
      const width = link.key.length;
      const ids = link.interned === undefined ? undefined : await internedIds(link, batch, width - 1);
      const rows: SqlValue[][] = [];
      for (const r of batch) {
        const pk = pkOf.get(r.id);
        const linkRows = r.links.get(link.table) ?? [];
        if (pk === undefined || linkRows.length === 0) continue;
        const seen = new Set<string>();
        // Columns of the record copied onto every link row (LinkTableSpec.ownerColumns).
        const ownerValues = carried.map(({ at, type }) => forColumn(type, r.columns[at] ?? null));
        for (const row of linkRows) {
          const key = JSON.stringify(row.slice(0, width));
          if (seen.has(key)) continue;
          seen.add(key);
          const values = row.map((v) => (v === null || typeof v === 'number' ? v : String(v)));
          if (ids !== undefined) {
            // An interned table holds the text's vocabulary id (a row without text has none).
            const id = ids.get(String(values[width - 1]));
            if (id === undefined) continue;
            values[width - 1] = id;
          }
          rows.push([pk, ...values, ...ownerValues]);
        }
      }
      const names = [
        owner,
        ...link.key.map((c) => c.name),
        ...link.extra.map((c) => c.name),
        ...carried.map((c) => c.name),
      ];
      await copyRows(client, link.table, names, rows);
    }
    // After the links: the narrow rows count them.
    const fill = narrowFill.get(kind);
    if (fill !== undefined) await client.query(fill, [pks]);
    const journals = batch.flatMap((r) => r.journals ?? []).filter(([id]) => !knownJournals.has(id));
    if (journals.length > 0) {
      await client.query(
        // A row of source_titles with the title alone, found by its title's words as a record's
        // would be (the source's full-text hook, one weight-A vector).
        `INSERT INTO source_titles (id, title, ${MAIN_VECTOR})
         SELECT DISTINCT ON (id) id, title, setweight(to_tsvector('simple', coalesce(words, '')), 'A')
         FROM unnest($1::text[], $2::text[], $3::text[]) AS j(id, title, words)
         ON CONFLICT (id) DO UPDATE SET title = coalesce(source_titles.title, EXCLUDED.title)`,
        [
          journals.map(([id]) => id),
          journals.map(([, title]) => title),
          journals.map(([, title]) => (title === null ? null : titleIndexText(title))),
        ],
      );
    }
    const categories = batch.flatMap((r) => r.categories ?? []).filter(([id]) => !knownCategories.has(id));
    if (categories.length > 0) {
      await client.query(
        `INSERT INTO categories (id, name, scheme) SELECT DISTINCT ON (id) id, name, scheme FROM unnest($1::text[], $2::text[], $3::text[]) AS c(id, name, scheme)
         ON CONFLICT (id) DO UPDATE SET name = coalesce(categories.name, EXCLUDED.name), scheme = coalesce(categories.scheme, EXCLUDED.scheme)`,
        [categories.map(([id]) => id), categories.map(([, name]) => name), categories.map(([, , scheme]) => scheme)],
      );
    }
    for (const [id] of journals) written.journals.push(id);
    for (const [id] of categories) written.categories.push(id);
  }

  /** Removes records of a kind by id, with their link rows, inside the caller's transaction. */
  async function removeKind(kind: RecordKind, ids: readonly string[]): Promise<number> {
    const owner = ownerKey(kind);
    const narrow = SOURCE_TABLES[kind].narrow;
    const found = await client.query<{ pk: number }>(
      `SELECT pk FROM ${SOURCE_TABLES[kind].table} WHERE id = ANY($1::text[])`,
      [ids],
    );
    const pks = found.rows.map((r) => r.pk);
    if (pks.length === 0) return 0;
    const stale = pgPerYearStaleSql(kind);
    if (stale !== undefined) await client.query(stale);
    if (narrow !== undefined) await client.query(`DELETE FROM ${narrow.table} WHERE pk = ANY($1::bigint[])`, [pks]);
    for (const link of LINK_TABLES.filter((l) => l.owner === kind))
      await client.query(`DELETE FROM ${link.table} WHERE ${owner} = ANY($1::bigint[])`, [pks]);
    const deleted = await client.query(`DELETE FROM ${SOURCE_TABLES[kind].table} WHERE pk = ANY($1::bigint[])`, [pks]);
    await noteLinkPending(client, kind, pks);
    return deleted.rowCount ?? 0;
  }

  /** Runs `work` in one transaction on the writer's connection; the vocabulary it wrote is known after COMMIT. */
  async function transaction<T>(work: (written: Written) => Promise<T>): Promise<T> {
    const written: Written = { journals: [], categories: [] };
    await client.query('BEGIN');
    let result: T;
    try {
      result = await work(written);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    for (const id of written.journals) knownJournals.add(id);
    for (const id of written.categories) knownCategories.add(id);
    return result;
  }

  const writeBatch = (kind: RecordKind, records: readonly object[]): Promise<void> =>
    transaction((written) => writeKind(kind, records, written));

  return {
    writeBatch,
    remove: (kind, ids) => transaction(() => removeKind(kind, ids)),
    begin: (request, inputs) => beginImport(client, request, inputs),
    commit: (run, batch, checkpoint) =>
      transaction(async (written) => {
        for (const [kind, records] of batch.upserts) await writeKind(kind, records, written);
        const removed: Partial<Record<RecordKind, number>> = {};
        for (const { kind, id } of batch.removals)
          removed[kind] = (removed[kind] ?? 0) + (await removeKind(kind, [id]));
        await checkpointImport(client, run, checkpoint.position, checkpoint.line, checkpoint.done);
        return removed;
      }),
    end: (run, state) => endImport(client, run, state),
    async finish(finishOptions) {
      // Before the derived data: the merged titles' totals and metrics are derived from them.
      const started = performance.now();
      const plan = planTitleMerge(
        titlesFromRows(
          (await client.query<Record<string, string | number | null>>(TITLE_COLUMNS_SQL)).rows,
          (await client.query<{ pk: string; field: string; value: string }>(TITLE_VALUES_SQL)).rows,
        ),
        (await client.query<HeldMerge>(HELD_MERGES_SQL)).rows,
      );
      await transaction(async (written) => {
        if (plan.upserts.length > 0) await writeKind('source_titles', plan.upserts, written);
        if (plan.removals.length > 0) await removeKind('source_titles', plan.removals);
        await client.query(`DELETE FROM ${MERGES_TABLE}`);
        const column = (name: keyof HeldMerge): (string | null)[] => plan.merges.map((m) => m[name]);
        await client.query(
          `INSERT INTO ${MERGES_TABLE} (id, into_id, record, merged)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
          [column('id'), column('into_id'), column('record'), column('merged')],
        );
      });
      finishOptions?.onStep?.('source titles merged', Math.round(performance.now() - started));
      // Before the derived data too: the narrow counts and organizations' totals count the links.
      const linking = performance.now();
      const linked = await transaction(() => linkOrganizationsPg(client));
      if (linked !== undefined)
        finishOptions?.onStep?.(
          `organizations linked by name (${linked.links} links, ${linked.records} records${linked.all ? ', all' : ''})`,
          Math.round(performance.now() - linking),
        );
      return derivePg(client, finishOptions);
    },
    async close() {
      client.release();
      await pool.end();
    },
  };
}
