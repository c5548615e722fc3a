/**
 * OpenAlex works (the raw Work objects of `works.jsonl.gz`, or the flattened view of
 * `works_flat.jsonl`) as publications. Authors with an OpenAlex author id become researchers,
 * gathered over the file; institutions keep their ROR id (as the full ROR URL), so they join
 * organizations imported from ROR. The snapshot's authors, institutions, funders and sources
 * partitions are read by the same reader (`openalex-entities.ts`).
 */
import type { Affiliation, Author, PublicationRecord, ResearcherRecord } from '../../../model/native-records.ts';
import {
  arr,
  bareDoi,
  bareOrcid,
  MalformedRecord,
  num,
  obj,
  openAlexId,
  parseObject,
  rorUrl,
  splitName,
  str,
  type Mapped,
} from './common.ts';
import { reportOrPolicyDocument, type WorkPublisher } from '../../../sources/policy_documents/publisher-rule.ts';
import { entityOf, mapOpenAlexEntity } from './openalex-entities.ts';
import type { FormatReader } from './reader.ts';

const TYPES: Readonly<Record<string, string>> = {
  'book-chapter': 'chapter',
  'posted-content': 'preprint',
  'proceedings-article': 'proceeding',
  'journal-article': 'article',
  dissertation: 'thesis',
};

interface Person {
  first_name: string;
  last_name: string;
  orcid?: string;
  orgs: Set<string>;
  current?: string;
  first: number;
  last: number;
  total: number;
}

/** Rebuilds abstract text from an inverted index ({word: [positions]}). */
export function abstractFromInvertedIndex(index: unknown): string | undefined {
  const words: string[] = [];
  for (const [word, positions] of Object.entries(obj(index)))
    for (const p of arr(positions)) if (typeof p === 'number') words[p] = word;
  const text = words.filter((w) => w !== undefined).join(' ');
  return text.length > 0 ? text : undefined;
}

export class OpenAlexReader implements FormatReader {
  readonly container = 'jsonl' as const;
  private readonly people = new Map<string, Person>();

  map(input: string | Readonly<Record<string, string>>): Mapped[] {
    const w = parseObject(input as string);
    const flat = 'openalex_id' in w;
    const id = openAlexId(flat ? w['openalex_id'] : w['id']);
    if (id === undefined) throw new MalformedRecord('an OpenAlex work without an id');
    // The snapshot's other entity folders hold the same JSON lines; the id's letter tells them apart.
    const entity = flat ? 'work' : entityOf(id);
    if (entity !== 'work') return mapOpenAlexEntity(w, id, entity);
    // Some real works have an empty title; they are kept (searchable by their other fields).
    const title = str(flat ? w['title'] : (w['title'] ?? w['display_name'])) ?? '';
    const year = num(w['publication_year']);
    if (year === undefined) throw new MalformedRecord(`work ${id} has no publication year`);
    const date = /^\d{4}-\d{2}-\d{2}$/.test(str(w['publication_date']) ?? '')
      ? (w['publication_date'] as string)
      : `${year}-01-01`;

    const authors: Author[] = [];
    const orgs: string[] = [];
    // The institutions the authorships name, by OpenAlex id: what the work says of its publisher.
    const institutions = new Map<string, WorkPublisher>();
    const rawAuthors = flat ? arr(w['authors']) : arr(w['authorships']);
    for (const a of rawAuthors.map(obj)) {
      const person = flat ? a : obj(a['author']);
      const name = str(flat ? a['name'] : person['display_name']) ?? str(a['raw_author_name']) ?? '';
      const authorId = openAlexId(flat ? a['openalex_id'] : person['id']);
      const orcid = bareOrcid(person['orcid']);
      const affiliations: Affiliation[] = [];
      for (const inst of arr(a['institutions']).map(obj)) {
        const ror = rorUrl(inst['ror']);
        const instName = str(flat ? inst['name'] : inst['display_name']) ?? '';
        const country = str(inst['country_code']);
        affiliations.push({
          ...(ror === undefined ? {} : { id: ror }),
          name: instName,
          ...(country === undefined ? {} : { country_code: country }),
        });
        if (ror !== undefined && !orgs.includes(ror)) orgs.push(ror);
        const instId = openAlexId(flat ? inst['openalex_id'] : inst['id']);
        const instType = str(inst['type']);
        if (instId !== undefined)
          institutions.set(instId, {
            ...(ror === undefined ? {} : { id: ror }),
            ...(instName === '' ? {} : { name: instName }),
            ...(instType === undefined ? {} : { types: [instType] }),
            ...(country === undefined ? {} : { country_code: country }),
          });
      }
      const { first_name, last_name } = splitName(name);
      const raw = arr(a['raw_affiliation_strings'])
        .map((x) => str(x)?.trim())
        .filter((x): x is string => x !== undefined && x !== '');
      authors.push({
        first_name,
        last_name,
        ...(authorId === undefined ? {} : { researcher_id: authorId }),
        ...(orcid === undefined ? {} : { orcid }),
        ...(a['is_corresponding'] === true ? { corresponding: true } : {}),
        affiliations,
        // The affiliation strings as printed (OpenAlex keeps them beside the matched institutions).
        ...(raw.length === 0 ? {} : { raw_affiliation: raw }),
      });
      if (authorId !== undefined) this.notePerson(authorId, first_name, last_name, orcid, affiliations, year);
    }

    const funders: string[] = [];
    for (const f of arr(w['funders'] ?? w['grants']).map(obj)) {
      const fid = rorUrl(f['ror']) ?? openAlexId(f['openalex_id'] ?? f['funder'] ?? f['id']);
      if (fid !== undefined && !funders.includes(fid)) funders.push(fid);
    }
    const oa = obj(w['open_access']);
    const status = str(oa['oa_status']);
    const source = flat ? obj(w['source']) : obj(obj(w['primary_location'])['source']);
    const sourceId = openAlexId(flat ? source['openalex_id'] : source['id']);
    const sourceName = str(flat ? source['name'] : source['display_name']);
    const biblio = obj(w['biblio']);
    const concepts = arr(w['concepts'])
      .map(obj)
      .filter((c) => str(c['name'] ?? c['display_name']) !== undefined);
    const abstract = str(w['abstract']) ?? abstractFromInvertedIndex(w['abstract_inverted_index']);
    const doi = bareDoi(w['doi']);
    const type = str(w['type']) ?? 'article';
    const firstPage = str(biblio['first_page']);
    const lastPage = str(biblio['last_page']);
    const issn = str(source['issn_l']);
    const publisher = str(source['publisher'] ?? source['host_organization_name']);
    const fwci = num(w['fwci']);
    const cited = num(w['cited_by_count']) ?? 0;
    const recent = arr(w['counts_by_year'])
      .map(obj)
      .filter((c) => (num(c['year']) ?? 0) >= 2024)
      .reduce((s, c) => s + (num(c['cited_by_count']) ?? 0), 0);
    const publication: PublicationRecord = {
      id,
      title,
      ...(abstract === undefined ? {} : { abstract }),
      ...(doi === undefined ? {} : { doi }),
      type: TYPES[type] ?? type,
      year,
      date,
      ...(sourceId !== undefined && sourceName !== undefined && str(source['type']) === 'journal'
        ? { journal: { id: sourceId, title: sourceName } }
        : {}),
      ...(sourceName === undefined ? {} : { journal_title_raw: sourceName }),
      ...(str(biblio['volume']) === undefined ? {} : { volume: str(biblio['volume']) as string }),
      ...(str(biblio['issue']) === undefined ? {} : { issue: str(biblio['issue']) as string }),
      ...(firstPage === undefined ? {} : { pages: lastPage === undefined ? firstPage : `${firstPage}-${lastPage}` }),
      ...(publisher === undefined ? {} : { publisher }),
      ...(issn === undefined ? {} : { issn: [issn] }),
      authors,
      research_orgs: orgs,
      funders,
      supporting_grant_ids: [],
      reference_ids: arr(w['referenced_works'])
        .map(openAlexId)
        .filter((r): r is string => r !== undefined),
      times_cited: cited,
      recent_citations: recent,
      concepts: concepts.map((c) => str(c['name'] ?? c['display_name']) as string),
      concepts_scores: concepts.map((c) => ({
        concept: str(c['name'] ?? c['display_name']) as string,
        relevance: num(c['score']) ?? 0,
      })),
      open_access: oa['is_oa'] === true ? ['oa_all', ...(status === undefined ? [] : [status])] : ['closed'],
      ...(fwci === undefined ? {} : { field_citation_ratio: fwci }),
    };
    if (type === 'report') return [this.report(w, publication, source, institutions)];
    return [{ kind: 'publications', record: publication }];
  }

  /**
   * A work typed `report`: a policy document when its publisher is a government or
   * intergovernmental body (`sources/policy_documents/publisher-rule.ts`), else a report. The
   * publisher is the host organization of the primary location's source; what the work says
   * of it (ROR id, type, country) comes from the authorships naming the same institution.
   */
  private report(
    w: Readonly<Record<string, unknown>>,
    publication: PublicationRecord,
    source: Readonly<Record<string, unknown>>,
    institutions: ReadonlyMap<string, WorkPublisher>,
  ): Mapped {
    const hostId = openAlexId(source['host_organization']);
    const hostName = str(source['host_organization_name']);
    const known = hostId === undefined ? undefined : institutions.get(hostId);
    const publisher: WorkPublisher | undefined =
      hostId === undefined && hostName === undefined
        ? undefined
        : {
            ...known,
            // An institution OpenAlex knows no ROR id of is keyed by its OpenAlex id, as organizations are.
            ...(known?.id === undefined && hostId?.startsWith('I') === true ? { id: hostId } : {}),
            ...(hostName === undefined ? {} : { name: hostName }),
          };
    const externalIds = Object.fromEntries(
      Object.entries(obj(w['ids']))
        .map(([kind, value]) => [kind, kind === 'doi' ? bareDoi(value) : openAlexId(value)] as const)
        .filter((entry): entry is readonly [string, string] => entry[1] !== undefined),
    );
    const keywords = arr(w['keywords'])
      .map((k) => (typeof k === 'string' ? k : str(obj(k)['display_name'])))
      .filter((k): k is string => k !== undefined);
    const linkout =
      str(obj(w['primary_location'])['landing_page_url']) ??
      (publication.doi === undefined ? undefined : `https://doi.org/${publication.doi}`);
    return reportOrPolicyDocument(publication, publisher, {
      keywords,
      externalIds,
      ...(linkout === undefined ? {} : { linkout }),
    });
  }

  end(): Mapped[] {
    const out: Mapped[] = [];
    for (const [id, p] of this.people) {
      const record: ResearcherRecord = {
        id,
        first_name: p.first_name,
        last_name: p.last_name,
        ...(p.orcid === undefined ? {} : { orcid_id: [p.orcid] }),
        research_orgs: [...p.orgs],
        ...(p.current === undefined ? {} : { current_research_org: p.current }),
        first_publication_year: p.first,
        last_publication_year: p.last,
        total_publications: p.total,
        total_grants: 0,
      };
      out.push({ kind: 'researchers', record });
    }
    this.people.clear();
    return out;
  }

  private notePerson(
    id: string,
    first_name: string,
    last_name: string,
    orcid: string | undefined,
    affs: readonly Affiliation[],
    year: number,
  ): void {
    let p = this.people.get(id);
    if (p === undefined) {
      p = { first_name, last_name, orgs: new Set(), first: year, last: year, total: 0 };
      this.people.set(id, p);
    }
    p.total++;
    if (orcid !== undefined) p.orcid = orcid;
    if (year < p.first) p.first = year;
    const orgIds = affs.map((a) => a.id).filter((x): x is string => x !== undefined);
    for (const o of orgIds) p.orgs.add(o);
    if (year >= p.last) {
      p.last = year;
      if (orgIds[0] !== undefined) p.current = orgIds[0];
    }
  }
}
