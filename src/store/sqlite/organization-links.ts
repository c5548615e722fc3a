/**
 * The organization links of records that name organizations by name, in SQLite
 * (`store/organization-links.ts` says what and why): the writer notes the records it writes,
 * `finish()` matches them (all of them when organizations changed) before the derived data,
 * so the narrow counts and the organizations' totals count the links.
 */
import type { Database, Statement } from 'better-sqlite3';
import { SOURCE_TABLES, type RecordKind } from '../../model/storage.ts';
import {
  ALL_RECORDS_KIND,
  CLEAR_PENDING_SQL,
  FORGET_REWRITTEN_SQL,
  isNamingKind,
  LINK_PENDING_TABLE,
  LINKED_TABLES,
  linkColumns,
  linksOf,
  MATCH_BATCH,
  MATCHED_LINKS_TABLE,
  NAMING_KINDS,
  namingRecordsFromRows,
  namingRecordsSql,
  ORGANIZATION_COLUMNS_SQL,
  ORGANIZATION_VALUES_SQL,
  OrganizationMatcher,
  organizationsFromRows,
  PENDING_SQL,
  unlinkMatchedSql,
  type LinkingReport,
  type NamingKind,
} from '../organization-links.ts';

/** What the writer calls after writing or removing records of `kind` (their pks). */
export type NoteLinkPending = (kind: RecordKind, pks: readonly number[]) => void;

/** The writer's note of records whose organization links `finish()` must match again. */
export function linkPendingNotes(db: Database): NoteLinkPending {
  let insert: Statement<[string, number]> | undefined;
  return (kind, pks) => {
    if (kind !== ALL_RECORDS_KIND && !isNamingKind(kind)) return;
    insert ??= db.prepare(`INSERT OR IGNORE INTO ${LINK_PENDING_TABLE} (kind, pk) VALUES (?, ?)`);
    if (kind === ALL_RECORDS_KIND) {
      if (pks.length > 0) insert.run(ALL_RECORDS_KIND, 0);
      return;
    }
    for (const pk of pks) insert.run(kind, pk);
  };
}

/** Reads the records of a batch of pks for matching. */
function readBatch(db: Database, kind: NamingKind, pks: readonly number[]): ReturnType<typeof namingRecordsFromRows> {
  const sql = namingRecordsSql(kind, {
    docText: (column) => `unpack_text(${column})`,
    inPks: 'IN (SELECT value FROM json_each(@pks))',
  });
  const bound = { pks: JSON.stringify(pks) };
  const all = <T>(text: string | undefined): T[] | undefined =>
    text === undefined ? undefined : (db.prepare(text).all(bound) as T[]);
  return namingRecordsFromRows(pks, {
    docs: all(sql.docs),
    names: all(sql.names),
    assignees: all(sql.assignees),
  });
}

/** The statements adding one matched link row and its note. */
function linkInserts(db: Database): (table: string) => { add: Statement; note: Statement } {
  const made = new Map<string, { add: Statement; note: Statement }>();
  return (table) => {
    let held = made.get(table);
    if (held === undefined) {
      const { owner, key, role, carried } = linkColumns(table);
      const columns = [key, ...(role === undefined ? [] : [role]), 'org_id', ...carried];
      const values = ['s.pk', ...(role === undefined ? [] : ['@role']), '@org', ...carried.map((c) => `s.${c}`)];
      held = {
        add: db.prepare(
          `INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${SOURCE_TABLES[owner].table} s WHERE s.pk = @pk`,
        ),
        note: db.prepare(
          `INSERT OR IGNORE INTO ${MATCHED_LINKS_TABLE} (kind, pk, link_table, role, org_id) VALUES (@kind, @pk, @table, @role, @org)`,
        ),
      };
      made.set(table, held);
    }
    return held;
  };
}

/**
 * Matches the records written since the last `finish()` (every record when organizations
 * changed) and adds the links found; inside the caller's transaction. Undefined when there
 * was nothing to do.
 */
export function linkOrganizations(db: Database): LinkingReport | undefined {
  const pending = db.prepare<[], { kind: string; pk: number }>(PENDING_SQL).all();
  if (pending.length === 0) return undefined;
  const all = pending.some((p) => p.kind === ALL_RECORDS_KIND);
  db.exec(FORGET_REWRITTEN_SQL);
  if (all) {
    for (const table of LINKED_TABLES) db.exec(unlinkMatchedSql(table));
    db.exec(`DELETE FROM ${MATCHED_LINKS_TABLE}`);
  }
  const pksOf = new Map<NamingKind, readonly number[]>(
    NAMING_KINDS.map((kind) => [
      kind,
      all
        ? db.prepare<[], number>(`SELECT pk FROM ${SOURCE_TABLES[kind].table} ORDER BY pk`).pluck().all()
        : pending.filter((p) => p.kind === kind).map((p) => p.pk),
    ]),
  );
  let records = 0;
  let links = 0;
  // The organizations are read, and the index built, only when there are records to match.
  const organizations = [...pksOf.values()].some((pks) => pks.length > 0)
    ? organizationsFromRows(
        db.prepare<[], Record<string, string | number | null>>(ORGANIZATION_COLUMNS_SQL).all(),
        db.prepare<[], { pk: number; field: string; value: string }>(ORGANIZATION_VALUES_SQL).all(),
      )
    : [];
  if (organizations.length > 0) {
    const matcher = new OrganizationMatcher(organizations);
    const inserts = linkInserts(db);
    for (const [kind, pks] of pksOf) {
      for (let start = 0; start < pks.length; start += MATCH_BATCH) {
        const batch = readBatch(db, kind, pks.slice(start, start + MATCH_BATCH));
        records += batch.length;
        for (const record of batch)
          for (const link of linksOf(kind, record, matcher)) {
            const { add, note } = inserts(link.table);
            const bound = { kind, pk: link.pk, table: link.table, role: link.role, org: link.orgId };
            if (add.run(bound).changes === 0) continue;
            note.run(bound);
            links++;
          }
      }
    }
  }
  db.exec(CLEAR_PENDING_SQL);
  return { records, links, all };
}
