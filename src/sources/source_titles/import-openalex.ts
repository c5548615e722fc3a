/**
 * An OpenAlex Source as a source title: the full object of the snapshot's `sources/`
 * partitions or the form embedded in works (`primary_location.source`), keyed by its short
 * id (`S137773608`), the id works name it by. The OpenAlex reader (`data/import/formats/`)
 * maps the snapshot's sources through it.
 *
 * - `type`: `journal` stays, `conference` is a `proceeding`, `book series` a `book_series`,
 *   a `repository` (preprint servers, institutional repositories) a `preprint_platform`; an
 *   `ebook platform` and any other type have no counterpart and are left out.
 * - `journal_lists`: `DOAJ` when OpenAlex says the source is in the Directory of Open Access
 *   Journals, `CWTS core` for its core sources (`is_core`), `Scopus` when indexed there.
 * - `issn`: the linking ISSN and every ISSN listed; OpenAlex does not say which is print and
 *   which electronic, so `issn_print` and `issn_electronic` stay unset.
 * - No `start_year`: OpenAlex's `counts_by_year` covers the last ten years only.
 */
import { arr, MalformedRecord, str, type Loose } from '../../data/import/formats/common.ts';
import type { SourceTitleType } from './fields.ts';
import { issnList } from './issn.ts';
import type { SourceTitleRecord } from './native.ts';

const OPENALEX_TYPES: Readonly<Record<string, SourceTitleType>> = {
  journal: 'journal',
  conference: 'proceeding',
  'book series': 'book_series',
  repository: 'preprint_platform',
};

/** The lists an OpenAlex source's flags place it in. */
function journalLists(raw: Loose): string[] {
  const lists: string[] = [];
  if (raw['is_in_doaj'] === true) lists.push('DOAJ');
  if (raw['is_core'] === true) lists.push('CWTS core');
  if (raw['is_indexed_in_scopus'] === true) lists.push('Scopus');
  return lists;
}

/** The source title of an OpenAlex Source keyed `id`; MalformedRecord for one without a name. */
export function openAlexSourceToTitle(raw: Loose, id: string): SourceTitleRecord {
  const title = str(raw['display_name']);
  if (title === undefined) throw new MalformedRecord(`OpenAlex ${id} has no display_name`);
  const type = OPENALEX_TYPES[str(raw['type'])?.toLowerCase() ?? ''];
  const issn = issnList([raw['issn_l'], ...arr(raw['issn'])]);
  const lists = journalLists(raw);
  const linkout = str(raw['homepage_url']);
  const publisher = str(raw['host_organization_name']);
  return {
    id,
    title,
    ...(type === undefined ? {} : { type }),
    ...(issn.length === 0 ? {} : { issn }),
    ...(lists.length === 0 ? {} : { journal_lists: lists }),
    ...(linkout === undefined ? {} : { linkout }),
    ...(publisher === undefined ? {} : { publisher }),
  };
}
