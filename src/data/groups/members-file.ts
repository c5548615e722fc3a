/**
 * The members of a group as an administrator lists them: a JSON array of organization ids
 * (or an object whose `organization_ids` is one), or CSV with an id per line in the first
 * column, a first line `id` / `organization_id` being a header. Both are what a spreadsheet
 * or a `search organizations ... return organizations[id]` export gives.
 */
import { readFile } from 'node:fs/promises';
import { QuarryError } from '../../errors/index.ts';

const HEADERS = new Set(['id', 'organization_id', 'organization_ids', 'org_id']);
// An organization id is one token of printable text (GRID, ROR URL, Funder Registry DOI).
const ORGANIZATION_ID = /^[^\s"',;]{1,200}$/u;

/** The organization ids `text` lists; `file` names it in errors. */
export function parseMembers(text: string, file: string): string[] {
  const unreadable = (reason: string): QuarryError =>
    QuarryError.of('GROUP_MEMBERS_UNREADABLE', { params: { file, reason } });
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  let ids: string[];
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw unreadable(`it is not valid JSON (${(error as Error).message})`);
    }
    const list = Array.isArray(parsed)
      ? parsed
      : parsed !== null && typeof parsed === 'object'
        ? (parsed as Record<string, unknown>)['organization_ids']
        : undefined;
    if (!Array.isArray(list))
      throw unreadable('the JSON is neither an array nor an object with an organization_ids array');
    const bad = list.findIndex((v) => typeof v !== 'string');
    if (bad >= 0) throw unreadable(`item ${bad + 1} of the list is not a string`);
    ids = (list as string[]).map((v) => v.trim());
  } else {
    const lines = trimmed === '' ? [] : trimmed.split(/\r?\n/);
    ids = lines.map((line) =>
      (line.split(',')[0] ?? '')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim(),
    );
    if (ids.length > 0 && HEADERS.has((ids[0] ?? '').toLowerCase())) ids = ids.slice(1);
  }
  const present = ids.filter((id) => id !== '');
  const wrong = present.find((id) => !ORGANIZATION_ID.test(id));
  if (wrong !== undefined) throw unreadable(`${JSON.stringify(wrong.slice(0, 80))} is not an organization id`);
  return present;
}

/** The text of the members file at `path` (parsed by `parseMembers`); a missing file is DATA_FILE_NOT_FOUND. */
export async function readMembersText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw QuarryError.of('DATA_FILE_NOT_FOUND', { params: { path } });
    throw error;
  }
}
