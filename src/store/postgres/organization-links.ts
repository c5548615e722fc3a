/**
 * The organization links of records that name organizations by name, in PostgreSQL
 * (`store/organization-links.ts` says what and why): the writer notes the records it writes,
 * `finish()` matches them (all of them when organizations changed) before the derived data,
 * so the narrow counts and the organizations' totals count the links.
 */
import type pg from 'pg';
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
  type MatchedLink,
  type NamingKind,
} from '../organization-links.ts';

/** Notes records of `kind` written or removed (their pks) for `finish()` to match again; inside the caller's transaction. */
export async function noteLinkPending(client: pg.ClientBase, kind: RecordKind, pks: readonly number[]): Promise<void> {
  if (pks.length === 0) return;
  if (kind === ALL_RECORDS_KIND) {
    await client.query(
      `INSERT INTO ${LINK_PENDING_TABLE} (kind, pk) VALUES ('${ALL_RECORDS_KIND}', 0) ON CONFLICT DO NOTHING`,
    );
    return;
  }
  if (!isNamingKind(kind)) return;
  await client.query(
    `INSERT INTO ${LINK_PENDING_TABLE} (kind, pk) SELECT $1, pk FROM unnest($2::bigint[]) AS pk ON CONFLICT DO NOTHING`,
    [kind, pks],
  );
}

/** Adds the matched rows of one link table, and notes those that were not there already. */
async function addLinks(client: pg.ClientBase, table: string, links: readonly MatchedLink[]): Promise<number> {
  const { owner, key, role, carried } = linkColumns(table);
  const columns = [key, ...(role === undefined ? [] : [role]), 'org_id', ...carried];
  const values = ['u.pk', ...(role === undefined ? [] : ['u.role']), 'u.org', ...carried.map((c) => `s.${c}`)];
  const added = await client.query(
    `WITH added AS (
       INSERT INTO ${table} (${columns.join(', ')})
       SELECT ${values.join(', ')} FROM unnest($1::bigint[], $2::text[], $3::text[]) AS u(pk, role, org), ${SOURCE_TABLES[owner].table} s
       WHERE s.pk = u.pk
       ON CONFLICT DO NOTHING
       RETURNING ${key} AS pk, ${role ?? "''"} AS role, org_id)
     INSERT INTO ${MATCHED_LINKS_TABLE} (kind, pk, link_table, role, org_id)
     SELECT $4, pk, $5, role, org_id FROM added ON CONFLICT DO NOTHING`,
    [links.map((l) => l.pk), links.map((l) => l.role), links.map((l) => l.orgId), owner, table],
  );
  return added.rowCount ?? 0;
}

/**
 * Matches the records written since the last `finish()` (every record when organizations
 * changed) and adds the links found; inside the caller's transaction. Undefined when there
 * was nothing to do.
 */
export async function linkOrganizationsPg(client: pg.ClientBase): Promise<LinkingReport | undefined> {
  const pending = (await client.query<{ kind: string; pk: string }>(PENDING_SQL)).rows;
  if (pending.length === 0) return undefined;
  const all = pending.some((p) => p.kind === ALL_RECORDS_KIND);
  await client.query(FORGET_REWRITTEN_SQL);
  if (all) {
    for (const table of LINKED_TABLES) await client.query(unlinkMatchedSql(table));
    await client.query(`DELETE FROM ${MATCHED_LINKS_TABLE}`);
  }
  const pksOf = new Map<NamingKind, readonly number[]>();
  for (const kind of NAMING_KINDS)
    pksOf.set(
      kind,
      all
        ? (await client.query<{ pk: string }>(`SELECT pk FROM ${SOURCE_TABLES[kind].table} ORDER BY pk`)).rows.map(
            (r) => Number(r.pk),
          )
        : pending.filter((p) => p.kind === kind).map((p) => Number(p.pk)),
    );
  let records = 0;
  let links = 0;
  // The organizations are read, and the index built, only when there are records to match.
  const organizations = [...pksOf.values()].some((pks) => pks.length > 0)
    ? organizationsFromRows(
        (await client.query<Record<string, string | number | null>>(ORGANIZATION_COLUMNS_SQL)).rows,
        (await client.query<{ pk: string; field: string; value: string }>(ORGANIZATION_VALUES_SQL)).rows,
      )
    : [];
  if (organizations.length > 0) {
    const matcher = new OrganizationMatcher(organizations);
    for (const [kind, pks] of pksOf) {
      const sql = namingRecordsSql(kind, { docText: (column) => `${column}::text`, inPks: '= ANY($1::bigint[])' });
      const read = async <T extends pg.QueryResultRow>(text: string | undefined, batch: number[]) =>
        text === undefined ? undefined : (await client.query<T>(text, [batch])).rows;
      for (let start = 0; start < pks.length; start += MATCH_BATCH) {
        const batch = pks.slice(start, start + MATCH_BATCH);
        const held = namingRecordsFromRows(batch, {
          docs: await read<{ pk: string; doc: string | null }>(sql.docs, batch),
          names: await read<{ pk: string; field: string; value: string }>(sql.names, batch),
          assignees: await read<{ pk: string; role: string }>(sql.assignees, batch),
        });
        records += held.length;
        const byTable = new Map<string, MatchedLink[]>();
        for (const record of held)
          for (const link of linksOf(kind, record, matcher)) {
            const list = byTable.get(link.table);
            if (list === undefined) byTable.set(link.table, [link]);
            else list.push(link);
          }
        for (const [table, list] of byTable) links += await addLinks(client, table, list);
      }
    }
  }
  await client.query(CLEAR_PENDING_SQL);
  return { records, links, all };
}
