/**
 * Crossref work messages (`works.jsonl`) as publications, keyed `doi:<doi>`. References
 * that carry a DOI point at `doi:<doi>`, so works imported together cite each other.
 */
import type { Author, PublicationRecord } from '../../../model/native-records.ts';
import {
  arr,
  bareDoi,
  bareOrcid,
  isoDate,
  MalformedRecord,
  num,
  obj,
  parseObject,
  str,
  type Mapped,
} from './common.ts';
import type { FormatReader } from './reader.ts';

const TYPES: Readonly<Record<string, string>> = {
  'journal-article': 'article',
  'book-chapter': 'chapter',
  'proceedings-article': 'proceeding',
  'posted-content': 'preprint',
  'edited-book': 'book',
  monograph: 'monograph',
  book: 'book',
  dissertation: 'thesis',
};

function dateParts(v: unknown): number[] | undefined {
  const parts = arr(arr(obj(v)['date-parts'])[0]).filter((n): n is number => typeof n === 'number');
  return parts.length > 0 ? parts : undefined;
}

/**
 * The work's ISBNs, digits (and a final X) only, each once: `isbn-type` where the work gives
 * it, else `ISBN` (a chapter carries its book's).
 */
function isbns(w: Readonly<Record<string, unknown>>): string[] {
  const typed = arr(w['isbn-type']).map((t) => obj(t)['value']);
  const given = typed.length > 0 ? typed : arr(w['ISBN']);
  const digits = given
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.replace(/[^0-9Xx]/g, '').toUpperCase())
    .filter((v) => v.length === 10 || v.length === 13);
  return [...new Set(digits)];
}

/** The work's editors as printed, `Given Family` (or an organization's name), joined by `; `. */
function editors(w: Readonly<Record<string, unknown>>): string | undefined {
  const names = arr(w['editor'])
    .map(obj)
    .map((e) => [str(e['given']), str(e['family'])].filter((p) => p !== undefined).join(' ') || str(e['name']))
    .filter((n): n is string => n !== undefined && n !== '');
  return names.length === 0 ? undefined : names.join('; ');
}

/** Maps one Crossref work (parsed) to a publication. */
export function crossrefToPublication(w: Readonly<Record<string, unknown>>): PublicationRecord {
  const doi = bareDoi(w['DOI']);
  if (doi === undefined) throw new MalformedRecord('a Crossref work without a DOI');
  const title = str(arr(w['title'])[0]) ?? str(w['title']) ?? '';
  const parts =
    dateParts(w['issued']) ??
    dateParts(w['published']) ??
    dateParts(w['published-print']) ??
    dateParts(w['published-online']) ??
    dateParts(w['created']);
  if (parts === undefined) throw new MalformedRecord(`work ${doi} has no date`);
  const [year, month, day] = parts as [number, number?, number?];
  const authors: Author[] = arr(w['author'])
    .map(obj)
    .map((a) => {
      const orcid = bareOrcid(a['ORCID']);
      // Crossref's affiliation names are the strings as deposited: they are also the raw affiliations.
      const names = arr(a['affiliation'])
        .map(obj)
        .map((f) => str(f['name']))
        .filter((n): n is string => n !== undefined);
      return {
        first_name: str(a['given']) ?? '',
        last_name: str(a['family']) ?? str(a['name']) ?? '',
        ...(orcid === undefined ? {} : { orcid }),
        affiliations: names.map((name) => ({ name, raw_affiliation: name })),
        ...(names.length === 0 ? {} : { raw_affiliation: names }),
      };
    });
  const funders: string[] = [];
  const grants: string[] = [];
  for (const f of arr(w['funder']).map(obj)) {
    const fid = bareDoi(f['DOI']);
    if (fid !== undefined && !funders.includes(`doi:${fid}`)) funders.push(`doi:${fid}`);
    for (const award of arr(f['award']))
      if (typeof award === 'string' && award.trim() !== '') grants.push(award.trim());
  }
  const references = arr(w['reference'])
    .map(obj)
    .map((r) => bareDoi(r['DOI']))
    .filter((d): d is string => d !== undefined)
    .map((d) => `doi:${d}`);
  const container = str(arr(w['container-title'])[0]);
  const type = str(w['type']) ?? 'article';
  const issn = arr(w['ISSN']).filter((s): s is string => typeof s === 'string');
  const licensed = arr(w['license']).length > 0;
  const pubType = TYPES[type] ?? type;
  const subjects = arr(w['subject']).filter((s): s is string => typeof s === 'string');
  const isbn = isbns(w);
  const editorNames = editors(w);
  return {
    id: `doi:${doi}`,
    title,
    doi,
    type: pubType,
    year,
    date: isoDate(year, month, day),
    ...(container === undefined
      ? {}
      : pubType === 'chapter'
        ? { book_title: container }
        : { journal_title_raw: container }),
    ...(str(w['volume']) === undefined ? {} : { volume: str(w['volume']) as string }),
    ...(str(w['issue']) === undefined ? {} : { issue: str(w['issue']) as string }),
    ...(str(w['page']) === undefined ? {} : { pages: str(w['page']) as string }),
    ...(str(w['publisher']) === undefined ? {} : { publisher: str(w['publisher']) as string }),
    ...(issn.length === 0 ? {} : { issn }),
    ...(isbn.length === 0 ? {} : { isbn }),
    ...(editorNames === undefined ? {} : { editors: editorNames }),
    authors,
    research_orgs: [],
    funders,
    supporting_grant_ids: grants,
    reference_ids: references,
    times_cited: num(w['is-referenced-by-count']) ?? 0,
    recent_citations: 0,
    concepts: subjects,
    // A license on the record is Crossref's only open-access hint.
    open_access: licensed ? ['oa_all'] : ['closed'],
  };
}

export class CrossrefReader implements FormatReader {
  readonly container = 'jsonl' as const;
  readonly pure = true;

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    return [{ kind: 'publications', record: crossrefToPublication(parseObject(source as string)) }];
  }

  end(): Mapped[] {
    return [];
  }
}
