/**
 * Reading the PatentsView tables into patents. A patent's data is spread over a dozen
 * tables joined by `patent_id` (and `g_location_disambiguated` by `location_id`), each
 * published as its own file of millions of rows (9M patents, 140M citations), in no order
 * the reader may count on. So the tables are read one after another, in any order, into a
 * staging database (SQLite, in a temporary folder): each row is upserted under its patent
 * id, table and sequence, so reading a table twice changes nothing. Then the patents are
 * assembled a page at a time, in patent id order, from their staged rows
 * (`patentsview-map.ts`). Memory holds one page of patents and SQLite's page cache,
 * whatever the size of the tables; the disk holds about what the tables hold, only the
 * columns the mapping reads. A patent without a `g_patent` row is not made: rows of other
 * tables for it wait for that table (any later run re-reading it into a new staging
 * database must read the others again).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CsvLineReader } from '../../data/csv.ts';
import { QuarryError } from '../../errors/index.ts';
import { MalformedRecord, MissingColumn } from '../../data/import/formats/common.ts';
import { formatList } from '../../data/import/format-names.ts';
import { fileInput, zipEntries, type ImportInput } from '../../data/import/inputs.ts';
import { readLines, recordTooLong } from '../../data/import/lines.ts';
import { DEFAULT_IMPORT_LIMITS, InputRefused, LimitExceeded, type ImportLimits } from '../../data/import/limits.ts';
import type { RecordSourceReader } from '../../data/import/record-source.ts';
import type { PatentRecord } from './native.ts';
import { cell, patentsViewToPatent, type PatentRows, type Row } from './patentsview-map.ts';
import { checkHeader, PATENTSVIEW_TABLES, patentsViewTable, type PatentsViewTable } from './patentsview-tables.ts';

/** Where a link table's rows go in `PatentRows`, what orders them, and the columns kept. */
const PARTS: Readonly<
  Record<
    Exclude<PatentsViewTable, 'g_patent' | 'g_location_disambiguated'>,
    { readonly part: Exclude<keyof PatentRows, 'patent'>; readonly key: string; readonly keep: readonly string[] }
  >
> = {
  g_patent_abstract: { part: 'abstract', key: 'patent_id', keep: ['patent_abstract'] },
  g_application: { part: 'application', key: 'patent_id', keep: ['application_id', 'filing_date'] },
  g_assignee_disambiguated: {
    part: 'assignees',
    key: 'assignee_sequence',
    keep: PATENTSVIEW_TABLES.g_assignee_disambiguated,
  },
  g_inventor_disambiguated: {
    part: 'inventors',
    key: 'inventor_sequence',
    keep: PATENTSVIEW_TABLES.g_inventor_disambiguated,
  },
  g_cpc_current: { part: 'cpc', key: 'cpc_sequence', keep: PATENTSVIEW_TABLES.g_cpc_current },
  g_ipc_at_issue: { part: 'ipc', key: 'ipc_sequence', keep: PATENTSVIEW_TABLES.g_ipc_at_issue },
  g_us_patent_citation: {
    part: 'citations',
    key: 'citation_sequence',
    keep: PATENTSVIEW_TABLES.g_us_patent_citation,
  },
  g_foreign_priority: {
    part: 'priority',
    key: 'priority_claim_sequence',
    keep: ['priority_claim_sequence', 'filing_date'],
  },
  g_gov_interest: { part: 'govInterest', key: 'gi_statement', keep: ['gi_statement'] },
  g_gov_interest_org: {
    part: 'govOrgs',
    key: 'fedagency_name',
    keep: ['fedagency_name', 'level_one', 'level_two', 'level_three'],
  },
  g_gov_interest_contracts: { part: 'contracts', key: 'contract_award_number', keep: ['contract_award_number'] },
};

const PATENT_COLUMNS = [
  'patent_id',
  'patent_date',
  'patent_title',
  'patent_abstract',
  'wipo_kind',
  'num_claims',
  'withdrawn',
];
const LOCATION_COLUMNS = PATENTSVIEW_TABLES.g_location_disambiguated;

/** The columns of `row` that are kept, as JSON (empty cells left out). */
function kept(row: Row, columns: readonly string[]): string {
  const out: Record<string, string> = {};
  for (const c of columns) {
    const v = cell(row, c);
    if (v !== undefined) out[c] = v;
  }
  return JSON.stringify(out);
}

/** Rows staged per transaction: SQLite commits are the cost of a staging write. */
const BATCH = 10_000;

/** Where a `g_patent` row was read: the table file (`archive.zip!entry`) and its line. */
export interface RowPlace {
  readonly file: string;
  readonly line: number;
}

/** One assembled patent, or why the rows of a patent id could not make one, with where its `g_patent` row was read. */
export type StagedPatent = { readonly patentId: string; readonly place?: RowPlace } & (
  { readonly record: PatentRecord } | { readonly malformed: string }
);

/** The staging database of one read of the PatentsView tables (see the file comment). */
export class PatentsViewStaging {
  private readonly db: Database.Database;
  private pending = 0;
  private staged = 0;
  private readonly insertPatent: Database.Statement;
  private readonly insertPart: Database.Statement;
  private readonly insertLocation: Database.Statement;

  private constructor(private readonly dir: string) {
    this.db = new Database(join(dir, 'staging.db'));
    // Scratch data, rebuilt from the tables by any new read: no journal, no syncing.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(`
      CREATE TABLE patent (patent_id TEXT PRIMARY KEY, row TEXT NOT NULL, file TEXT, line INTEGER) WITHOUT ROWID;
      CREATE TABLE part (patent_id TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, ord INTEGER NOT NULL,
        row TEXT NOT NULL, PRIMARY KEY (patent_id, tbl, key)) WITHOUT ROWID;
      CREATE TABLE location (location_id TEXT PRIMARY KEY, row TEXT NOT NULL) WITHOUT ROWID;`);
    this.insertPatent = this.db.prepare('INSERT OR REPLACE INTO patent VALUES (?, ?, ?, ?)');
    this.insertPart = this.db.prepare('INSERT OR REPLACE INTO part VALUES (?, ?, ?, ?, ?)');
    this.insertLocation = this.db.prepare('INSERT OR REPLACE INTO location VALUES (?, ?)');
  }

  /** A new, empty staging database in a new folder under `parent` (the system's temporary folder). */
  static open(parent: string = tmpdir()): PatentsViewStaging {
    return new PatentsViewStaging(mkdtempSync(join(parent, 'quarry-patentsview-')));
  }

  /**
   * Stages one row of `table` (a `g_patent` row with where it was read, for the problems of
   * its patent); MalformedRecord for a row without the id it is joined by.
   */
  add(table: PatentsViewTable, row: Row, place?: RowPlace): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    if (table === 'g_location_disambiguated') {
      const id = cell(row, 'location_id');
      if (id === undefined) throw new MalformedRecord('a location without location_id');
      this.insertLocation.run(id, kept(row, LOCATION_COLUMNS));
    } else {
      const patent = cell(row, 'patent_id');
      if (patent === undefined) throw new MalformedRecord(`a ${table} row without patent_id`);
      if (table === 'g_patent')
        this.insertPatent.run(patent, kept(row, PATENT_COLUMNS), place?.file ?? null, place?.line ?? null);
      else {
        const { key, keep } = PARTS[table];
        // `ord` keeps the file's order for the tables without a sequence column (agencies, contracts).
        this.insertPart.run(patent, table, cell(row, key) ?? kept(row, keep), this.staged, kept(row, keep));
      }
    }
    this.staged++;
    if (++this.pending >= BATCH) this.commit();
  }

  private commit(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.pending = 0;
  }

  /** The patents of the staged `g_patent` rows, in patent id order, `pageSize` at a time from the database. */
  *patents(pageSize = 500): Generator<StagedPatent> {
    this.commit();
    const page = this.db.prepare<
      [string, number],
      { patent_id: string; row: string; file: string | null; line: number | null }
    >('SELECT patent_id, row, file, line FROM patent WHERE patent_id > ? ORDER BY patent_id LIMIT ?');
    const partsOf = this.db.prepare<[string, string], { patent_id: string; tbl: string; row: string }>(
      'SELECT patent_id, tbl, row FROM part WHERE patent_id BETWEEN ? AND ? ORDER BY patent_id, tbl, ord',
    );
    const location = this.db.prepare<[string], { row: string }>('SELECT row FROM location WHERE location_id = ?');
    const places = new Map<string, Row | undefined>();
    const lookUp = (id: string): Row | undefined => {
      if (!places.has(id)) {
        const found = location.get(id);
        places.set(id, found === undefined ? undefined : (JSON.parse(found.row) as Row));
      }
      return places.get(id);
    };
    let after = '';
    for (;;) {
      const patents = page.all(after, pageSize);
      const last = patents[patents.length - 1];
      if (last === undefined) return;
      const first = patents[0] as { patent_id: string };
      const rows = new Map<string, Record<string, Row[]>>();
      for (const p of partsOf.all(first.patent_id, last.patent_id)) {
        const byTable = rows.get(p.patent_id) ?? {};
        (byTable[p.tbl] ??= []).push(JSON.parse(p.row) as Row);
        rows.set(p.patent_id, byTable);
      }
      places.clear();
      for (const p of patents) {
        const parts = rows.get(p.patent_id) ?? {};
        const gathered: Record<string, unknown> = { patent: { patent_id: p.patent_id, ...(JSON.parse(p.row) as Row) } };
        for (const [table, { part }] of Object.entries(PARTS)) {
          const list = parts[table];
          if (list === undefined) continue;
          gathered[part] = part === 'abstract' || part === 'application' ? list[0] : list;
        }
        const at = p.file === null || p.line === null ? {} : { place: { file: p.file, line: p.line } };
        try {
          yield {
            patentId: p.patent_id,
            ...at,
            record: patentsViewToPatent(gathered as unknown as PatentRows, lookUp),
          };
        } catch (err) {
          if (!(err instanceof MalformedRecord)) throw err;
          yield { patentId: p.patent_id, ...at, malformed: err.message };
        }
      }
      after = last.patent_id;
    }
  }

  /** Closes the database and deletes its folder. */
  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The table inputs of a path: the `.tsv` entries of a zip (`g_patent.tsv.zip`), or the file. */
export async function patentsViewInputs(path: string): Promise<ImportInput[]> {
  if (!/\.zip$/i.test(path)) return [fileInput(path)];
  return (await zipEntries(path))
    .filter((e) => /\.tsv$/i.test(e.name))
    .map((e) => ({ name: `${path}!${e.name}`, file: path, entry: e.name, size: e.size, unpacked: e.unpacked }));
}

/** What reading the tables gives: patents, and the rows and files that could not be used. */
export type PatentsViewItem =
  /** A patent, with where its `g_patent` row was read. */
  | { readonly record: PatentRecord; readonly input: string; readonly line: number }
  | { readonly input: string; readonly line: number; readonly malformed: string }
  /** A file refused whole: not a table Quarry reads (DATA_UNKNOWN_FORMAT), or without a column it needs (DATA_CSV_MISSING_COLUMN). */
  | { readonly input: string; readonly refused: QuarryError };

export interface PatentsViewReading {
  readonly limits?: ImportLimits;
  /** The folder the staging database's folder is made in (default: the system's temporary folder). */
  readonly stagingParent?: string;
  /** Receives the bytes read from disk so far, all tables together. */
  readonly onBytes?: (bytes: number) => void;
}

/**
 * Reads PatentsView table files (`g_*.tsv`, plain, gzip or zipped as published) in the order
 * given into a staging database, then yields the patents of the `g_patent` rows read. A file
 * past `limits` is refused (the import's coded `InputRefused`) at the line it reached, the
 * rows before it kept.
 */
export async function* readPatentsView(
  paths: readonly string[],
  reading: PatentsViewReading = {},
): AsyncGenerator<PatentsViewItem> {
  const inputs: ImportInput[] = [];
  for (const path of paths) inputs.push(...(await patentsViewInputs(path)));
  yield* readPatentsViewInputs(inputs, reading);
}

/** `readPatentsView` over table inputs (files, or entries of zipped tables) as the import finds them. */
export async function* readPatentsViewInputs(
  inputs: readonly ImportInput[],
  { limits = DEFAULT_IMPORT_LIMITS, stagingParent, onBytes }: PatentsViewReading = {},
): AsyncGenerator<PatentsViewItem> {
  const staging = PatentsViewStaging.open(stagingParent);
  try {
    // The bytes of the tables read before the one being read.
    let before = 0;
    for (const input of inputs) {
      const table = patentsViewTable(input.entry ?? input.file) ?? patentsViewTable(input.file);
      if (table === undefined) yield { input: input.name, refused: notATable(input.name) };
      else
        try {
          yield* stageTable(staging, table, input, limits, (bytes) => onBytes?.(before + bytes));
        } catch (err) {
          // A table past the limits is refused from there on; the rows before stay staged, and
          // the other tables are read.
          if (!(err instanceof InputRefused)) throw err;
          yield { input: input.name, refused: err };
        }
      before += input.size;
    }
    for (const p of staging.patents()) {
      const place = { input: p.place?.file ?? `g_patent patent_id ${p.patentId}`, line: p.place?.line ?? 0 };
      if ('record' in p) yield { ...place, record: p.record };
      else yield { ...place, malformed: p.malformed };
    }
  } finally {
    staging.close();
  }
}

const notATable = (path: string): QuarryError =>
  QuarryError.of('DATA_UNKNOWN_FORMAT', { params: { path, formats: formatList() } });

/**
 * The import's reader of the `patentsview` format (`import-formats.ts`): every table of the
 * import is one input (its `parts`), staged together, then the patents come out in patent
 * id order (see the file comment).
 */
export const patentsViewRecordSource: RecordSourceReader = {
  async *read(input, limits, onBytes) {
    for await (const item of readPatentsViewInputs(input.parts ?? [input], { limits, onBytes })) {
      if ('refused' in item) {
        const line = item.refused instanceof InputRefused ? item.refused.line : 1;
        yield { where: item.input, line, refused: item.refused };
      } else if ('record' in item)
        yield { where: item.input, line: item.line, mapped: [{ kind: 'patents', record: item.record }] };
      else yield { where: item.input, line: item.line, malformed: item.malformed };
    }
  },
};

/** Stages the rows of one table file, yielding the rows and header it could not use. */
async function* stageTable(
  staging: PatentsViewStaging,
  table: PatentsViewTable,
  input: ImportInput,
  limits: ImportLimits,
  onBytes: (bytes: number) => void,
): AsyncGenerator<PatentsViewItem> {
  const tsv = new CsvLineReader('\t');
  let header: string[] | undefined;
  let start = 0;
  let held = 0;
  let reached = 0;
  try {
    for await (const { text, line } of readLines(input, onBytes, limits)) {
      reached = line;
      if (!tsv.open) {
        start = line;
        held = 0;
        if (text.trim() === '') continue;
      }
      held += text.length + 1;
      if (held > limits.maxLineBytes) throw recordTooLong(limits.maxLineBytes, start);
      const fields = tsv.push(text);
      if (fields === undefined) continue;
      if (header === undefined) {
        header = fields.map((h) => h.trim().replace(/^\uFEFF/, ''));
        try {
          checkHeader(table, header);
        } catch (err) {
          if (!(err instanceof MissingColumn)) throw err;
          const params = { file: input.name, format: err.layout, column: err.column, found: header.join(', ') };
          yield { input: input.name, refused: QuarryError.of('DATA_CSV_MISSING_COLUMN', { params }) };
          return;
        }
        continue;
      }
      if (fields.length !== header.length) {
        yield { input: input.name, line: start, malformed: `expected ${header.length} fields, found ${fields.length}` };
        continue;
      }
      const row: Record<string, string> = {};
      header.forEach((h, k) => (row[h] = fields[k] as string));
      try {
        staging.add(table, row, { file: input.name, line: start });
      } catch (err) {
        if (!(err instanceof MalformedRecord)) throw err;
        yield { input: input.name, line: start, malformed: err.message };
      }
    }
    if (tsv.open) yield { input: input.name, line: start, malformed: 'a quoted field is never closed' };
  } catch (err) {
    if (err instanceof LimitExceeded) throw err.at(input.name, reached);
    throw err;
  }
}
