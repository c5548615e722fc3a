/**
 * An organization and everything under it in the parent/child hierarchy the held
 * organizations record (ROR's `parent`/`child` relationships become
 * `organization_parent_ids` / `organization_child_ids`), read through the query language so
 * that it works the same on every database. A child is known from either side: the parent
 * naming it, or the child naming the parent (ROR dumps are not always symmetric). A child
 * named but not held is a member too; nothing below it is known. Visited ids are never
 * visited again, so a cycle in the data ends the walk instead of looping.
 */
import { QuarryError } from '../../errors/index.ts';

/** What the walk needs of a query connection (`LocalQueries`, an engine adapter). */
export interface QueryPoster {
  post(text: string): Promise<unknown>;
}

// Ids per `in [...]` list, and rows per page (the language's maximum `limit`).
const CHUNK = 100;
const PAGE = 1000;

type Row = Readonly<Record<string, unknown>>;

const literal = (id: string): string => JSON.stringify(id);

async function rowsOf(queries: QueryPoster, text: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const answer = (await queries.post(`${text} limit ${PAGE} skip ${skip}`)) as Record<string, unknown>;
    const page = (answer['organizations'] ?? []) as Row[];
    rows.push(...page);
    if (page.length < PAGE) return rows;
  }
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * The ids of `rootId` and all its descendants, the root first, then level by level. Throws
 * GROUP_ORGANIZATION_NOT_FOUND when the root is not held.
 */
export async function organizationWithDescendants(queries: QueryPoster, rootId: string): Promise<string[]> {
  const found = await rowsOf(queries, `search organizations where id = ${literal(rootId)} return organizations[id]`);
  if (found.length === 0) throw QuarryError.of('GROUP_ORGANIZATION_NOT_FOUND', { params: { id: rootId } });
  const seen = new Set<string>([rootId]);
  let level = [rootId];
  while (level.length > 0) {
    const next: string[] = [];
    const add = (id: string): void => {
      if (seen.has(id)) return;
      seen.add(id);
      next.push(id);
    };
    for (let at = 0; at < level.length; at += CHUNK) {
      const list = `[${level
        .slice(at, at + CHUNK)
        .map(literal)
        .join(', ')}]`;
      for (const row of await rowsOf(
        queries,
        `search organizations where id in ${list} return organizations[id + organization_child_ids]`,
      ))
        for (const child of strings(row['organization_child_ids'])) add(child);
      for (const row of await rowsOf(
        queries,
        `search organizations where organization_parent_ids in ${list} return organizations[id]`,
      ))
        if (typeof row['id'] === 'string') add(row['id']);
    }
    level = next;
  }
  return [...seen];
}
