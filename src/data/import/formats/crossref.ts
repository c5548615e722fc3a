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
  rorUrl,
  str,
  type Mapped,
} from './common.ts';
import { reportOrPolicyDocument, type WorkPublisher } from '../../../sources/policy_documents/publisher-rule.ts';
import type { FormatReader } from './reader.ts';

/** The Crossref types of reports (a report, a part of one, a series of them). */
const REPORT_TYPES: ReadonlySet<string> = new Set(['report', 'report-component', 'report-series']);

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

/**
 * The publisher of a Crossref report: the first `institution` its deposit names (reports
 * name the issuing institution there), with its ROR id when given; else the `publisher`
 * (the Crossref member) by name only. Crossref gives no organization types.
 */
function crossrefPublisher(w: Readonly<Record<string, unknown>>): WorkPublisher | undefined {
  const institution = arr(w['institution'])
    .map(obj)
    .find((i) => str(i['name']) !== undefined);
  if (institution !== undefined) {
    const ror = arr(institution['id'])
      .map(obj)
      .find((id) => str(id['id-type'])?.toUpperCase() === 'ROR');
    const id = ror === undefined ? undefined : rorUrl(ror['id']);
    return { name: str(institution['name']) as string, ...(id === undefined ? {} : { id }) };
  }
  const member = str(w['publisher']);
  return member === undefined ? undefined : { name: member };
}

/** A Crossref work typed as a report: a policy document or a report (`publisher-rule.ts`). */
function crossrefReport(w: Readonly<Record<string, unknown>>, publication: PublicationRecord): Mapped {
  const linkout = str(obj(obj(w['resource'])['primary'])['URL']) ?? str(w['URL']);
  const keywords = arr(w['subject']).filter((s): s is string => typeof s === 'string');
  const funders = arr(w['funder'])
    .map(obj)
    .filter((f) => str(f['name']) !== undefined)
    .map((f) => {
      const id = bareDoi(f['DOI']);
      const award = arr(f['award']).filter((a): a is string => typeof a === 'string' && a.trim() !== '');
      return {
        name: str(f['name']) as string,
        ...(id === undefined ? {} : { id: `doi:${id}` }),
        ...(award.length === 0 ? {} : { award }),
      };
    });
  return reportOrPolicyDocument(publication, crossrefPublisher(w), {
    keywords,
    funders,
    externalIds: { doi: publication.doi as string },
    ...(linkout === undefined ? {} : { linkout }),
  });
}

export class CrossrefReader implements FormatReader {
  readonly container = 'jsonl' as const;
  readonly pure = true;

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    const work = parseObject(source as string);
    const publication = crossrefToPublication(work);
    if (REPORT_TYPES.has(str(work['type']) ?? '')) return [crossrefReport(work, publication)];
    return [{ kind: 'publications', record: publication }];
  }

  end(): Mapped[] {
    return [];
  }
}
