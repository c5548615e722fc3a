/**
 * DataCite DOI metadata as datasets. One DOI record is one dataset when its
 * `types.resourceTypeGeneral` is `Dataset`; every other type (Text, Software, Image, ...) is
 * passed over. The record comes in three shapes, all read here (the containers by
 * `import-datacite-files.ts`):
 *
 * - a REST API item, `{"id", "type": "dois", "attributes": {...}, "relationships": {...}}`,
 *   one per line in JSON Lines or inside an API page (`{"data": [...], "included": [...],
 *   "meta": {...}, "links": {"next": ...}}`, or `"data": {...}` for one DOI);
 * - a line of the DataCite Public Data File, the attributes at the top level.
 *
 * Ids are `doi:` and the lower-case DOI, as Crossref works are keyed (`crossref.ts`): the DOI
 * is the one identifier every shape carries, it is stable across harvests (a DOI read from
 * the API and again from the Public Data File replaces the same record), and a DOI-derived
 * key is how Quarry already names records without an id of their own.
 *
 * Organizations: an affiliation with a ROR identifier becomes a research organization, keyed
 * by its ROR URL as `ror.ts` keys organizations; others keep their name in the author's
 * `affiliations` (no id), where an affiliation matcher will fill ids. Funders: a ROR id gives
 * the ROR URL, a Crossref Funder ID gives `doi:10.13039/…` (as `crossref.ts` keys funders);
 * every funding reference is kept in `funder_details`. The associated publication is taken
 * from `relatedIdentifiers` (IsSupplementTo first, then IsReferencedBy / IsCitedBy, then
 * IsDocumentedBy / IsDescribedBy) and kept by DOI or PMID; the held publication it names is
 * found when the dataset is written (LAYOUT.md, "Associated publication").
 */
import {
  arr,
  bareDoi,
  bareOrcid,
  isoDate,
  MalformedRecord,
  obj,
  parseObject,
  rorUrl,
  str,
  type Loose,
} from '../../data/import/formats/common.ts';
import type { Affiliation } from '../../model/native-records.ts';
import type {
  DatasetAuthor,
  DatasetFunding,
  DatasetPublicationLink,
  DatasetRecord,
  DatasetRepository,
} from './native.ts';

/** A DOI record as read: its attributes and the repository (DataCite client) registering it, when given. */
export interface DataciteItem {
  readonly attributes: Loose;
  /** The client id (`cern.zenodo`) and, from an API page's `included`, its name. */
  readonly client?: { readonly id: string; readonly name?: string };
}

/** One value or a list of them as a list (the Public Data File writes a lone affiliation as an object). */
const many = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** Text with its runs of white space made one space (values from XML keep its indentation). */
const oneLine = (v: unknown): string | undefined => str(v)?.replace(/\s+/g, ' ');

/**
 * The attributes and client of a parsed REST API item or Public Data File line.
 * `clientNames` are the names an API page's `included` gives its clients.
 */
export function dataciteItem(raw: Loose, clientNames?: ReadonlyMap<string, string>): DataciteItem {
  const nested = raw['attributes'];
  const attributes = nested !== null && typeof nested === 'object' && !Array.isArray(nested) ? (nested as Loose) : raw;
  const clientId =
    str(obj(obj(obj(raw['relationships'])['client'])['data'])['id']) ??
    str(attributes['clientId']) ??
    str(raw['clientId']);
  if (clientId === undefined) return { attributes };
  const name = clientNames?.get(clientId);
  return { attributes, client: name === undefined ? { id: clientId } : { id: clientId, name } };
}

/** True when the record is of resource type Dataset (the only kind that becomes a dataset). */
export function isDataset(attributes: Loose): boolean {
  return str(obj(attributes['types'])['resourceTypeGeneral'])?.toLowerCase() === 'dataset';
}

/**
 * A DataCite date as `YYYY-MM-DD` (`2011-02-01T17:22:41Z`, `2015`, `2017-11`, `07.04.2017`,
 * the start of a range `2020-10-01/2020-11-30`), missing month or day as 01; undefined for
 * text that is no date.
 */
export function dataciteDate(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  const iso = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?!\d)/.exec(s);
  const dotted = iso === null ? /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(s) : null;
  const [year, month, day] =
    iso !== null
      ? [
          Number(iso[1]),
          iso[2] === undefined ? undefined : Number(iso[2]),
          iso[3] === undefined ? undefined : Number(iso[3]),
        ]
      : dotted !== null
        ? [Number(dotted[3]), Number(dotted[2]), Number(dotted[1])]
        : [undefined, undefined, undefined];
  if (year === undefined) return undefined;
  if (month !== undefined && (month < 1 || month > 12)) return isoDate(year);
  if (day !== undefined && (day < 1 || day > 31)) return isoDate(year, month);
  return isoDate(year, month, day);
}

/** The dates of one `dateType`, in the record's order, parsed. */
function datesOf(attributes: Loose, type: string): string[] {
  return many(attributes['dates'])
    .map(obj)
    .filter((d) => str(d['dateType'])?.toLowerCase() === type.toLowerCase())
    .map((d) => dataciteDate(d['date']))
    .filter((d): d is string => d !== undefined);
}

/** An ISO 639-1 code from a language tag (`en`, `en-US`, `eng`, `deu`); undefined for anything else. */
export function languageCode(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  try {
    // Intl canonicalises three-letter codes that have a two-letter one (eng -> en, ger -> de).
    const language = new Intl.Locale(s).language;
    return /^[a-z]{2}$/.test(language) ? language : undefined;
  } catch {
    return undefined;
  }
}

/** The year of publication: `publicationYear` (a number or digits), else the year of the issued date. */
function yearOf(attributes: Loose): number | undefined {
  const raw = attributes['publicationYear'];
  const year = typeof raw === 'number' ? raw : /^\s*\d{1,4}\s*$/.test(str(raw) ?? '') ? Number(raw) : undefined;
  if (year !== undefined && Number.isInteger(year) && year > 0) return year;
  const issued = datesOf(attributes, 'Issued')[0] ?? dataciteDate(attributes['published']);
  return issued === undefined ? undefined : Number(issued.slice(0, 4));
}

/**
 * The publication date: the most precise of the issued dates and `published` that falls in
 * the year of publication, else the year's first day (so `year` and `date` never disagree);
 * `known` is the last day the publication can be on (the date, or the year's last day when
 * only the year is known).
 */
function dateOf(attributes: Loose, year: number): { date: string; known: string } {
  const candidates = [...datesOf(attributes, 'Issued'), dataciteDate(attributes['published'])].filter(
    (d): d is string => d !== undefined && Number(d.slice(0, 4)) === year,
  );
  const precise = candidates.find((d) => !d.endsWith('-01-01'));
  const date = precise ?? candidates[0] ?? isoDate(year);
  return { date, known: precise === undefined ? isoDate(year, 12, 31) : date };
}

/** The main title (the first without a `titleType`, else the first) and its language. */
function titleOf(attributes: Loose): { title: string; lang?: string } {
  const titles = many(attributes['titles']).map(obj);
  const main = titles.find((t) => str(t['titleType']) === undefined && oneLine(t['title']) !== undefined) ?? titles[0];
  const title = oneLine(main?.['title']) ?? '';
  const lang = main === undefined ? undefined : languageCode(main['lang']);
  return lang === undefined ? { title } : { title, lang };
}

/** The description: the first abstract, else the first description that is not series information. */
function descriptionOf(attributes: Loose): { text: string; lang?: string } | undefined {
  const descriptions = many(attributes['descriptions'])
    .map(obj)
    .map((d) => ({
      type: str(d['descriptionType'])?.toLowerCase(),
      // Older records hold a description as a list of strings.
      text: str(
        many(d['description'])
          .filter((p) => typeof p === 'string')
          .join('\n'),
      ),
      lang: languageCode(d['lang']),
    }))
    .filter((d) => d.text !== undefined);
  const chosen =
    descriptions.find((d) => d.type === 'abstract') ??
    descriptions.find((d) => d.type !== 'seriesinformation' && d.type !== 'technicalinfo');
  if (chosen?.text === undefined) return undefined;
  return chosen.lang === undefined ? { text: chosen.text } : { text: chosen.text, lang: chosen.lang };
}

/** The ORCID iD among a creator's name identifiers. */
function orcidOf(creator: Loose): string | undefined {
  for (const id of many(creator['nameIdentifiers'])) {
    const entry = typeof id === 'string' ? { nameIdentifier: id } : obj(id);
    const value = str(entry['nameIdentifier']);
    const scheme = str(entry['nameIdentifierScheme']) ?? '';
    if (value === undefined || !(/orcid/i.test(scheme) || /orcid\.org/i.test(value))) continue;
    const orcid = bareOrcid(value)?.toUpperCase();
    if (orcid !== undefined && /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/.test(orcid)) return orcid;
  }
  return undefined;
}

/** A ROR URL from an affiliation or funder identifier, when it is one. */
function rorOf(identifier: string | undefined, scheme: string | undefined): string | undefined {
  if (identifier === undefined) return undefined;
  if (/ror\.org\//i.test(identifier)) return rorUrl(identifier.replace(/^https?:\/\/(www\.)?ror\.org\//i, ''));
  return /^ror$/i.test(scheme ?? '') && /^0[a-z0-9]{8}$/i.test(identifier) ? rorUrl(identifier) : undefined;
}

/** A creator's affiliations: names as written, with the ROR URL as id where given. */
function affiliationsOf(creator: Loose): Affiliation[] {
  const out: Affiliation[] = [];
  for (const a of many(creator['affiliation'])) {
    const entry = typeof a === 'string' ? { name: a } : obj(a);
    const name = oneLine(entry['name']);
    const id = rorOf(str(entry['affiliationIdentifier']), str(entry['affiliationIdentifierScheme']));
    if (name === undefined && id === undefined) continue;
    if (out.some((o) => o.name === (name ?? '') && o.id === id)) continue;
    out.push({ ...(id === undefined ? {} : { id }), name: name ?? '' });
  }
  return out;
}

/** One creator as an author: `Given Family` for a person the record splits, else the name as written. */
function authorOf(creator: Loose): DatasetAuthor | undefined {
  const given = oneLine(creator['givenName']);
  const family = oneLine(creator['familyName']);
  const written = oneLine(creator['name']);
  const organizational = str(creator['nameType'])?.toLowerCase() === 'organizational';
  let first = organizational ? undefined : given;
  let last = organizational ? undefined : family;
  // A person written `Family, Given` without the parts: split at the comma.
  if (!organizational && first === undefined && last === undefined && written !== undefined) {
    const comma = /^([^,]+),\s*(.+)$/.exec(written);
    if (comma !== null && str(creator['nameType'])?.toLowerCase() === 'personal') {
      last = comma[1]?.trim();
      first = comma[2]?.trim();
    }
  }
  const name = first !== undefined && last !== undefined ? `${first} ${last}` : (written ?? last ?? first);
  if (name === undefined) return undefined;
  const orcid = orcidOf(creator);
  return {
    name,
    ...(first === undefined ? {} : { first_name: first }),
    ...(last === undefined ? {} : { last_name: last }),
    ...(orcid === undefined ? {} : { orcid }),
    affiliations: affiliationsOf(creator),
  };
}

/** A funding reference in the record's words, with the organization id Quarry keys it by when it has one. */
function fundingOf(ref: Loose): DatasetFunding | undefined {
  const name = oneLine(ref['funderName']);
  const identifier = str(ref['funderIdentifier']);
  const type = str(ref['funderIdentifierType']);
  let id = rorOf(identifier, type);
  if (id === undefined && identifier !== undefined) {
    // A Crossref Funder ID is a DOI under 10.13039, written whole or as its digits alone.
    const doi = /10\.13039\//.test(identifier)
      ? bareDoi(identifier)
      : /crossref/i.test(type ?? '') && /^\d{6,12}$/.test(identifier)
        ? `10.13039/${identifier}`
        : undefined;
    if (doi !== undefined) id = `doi:${doi}`;
  }
  if (name === undefined && id === undefined) return undefined;
  const award = str(ref['awardNumber']);
  const awardTitle = oneLine(ref['awardTitle']);
  const awardUri = str(ref['awardUri']);
  return {
    name: name ?? '',
    ...(id === undefined ? {} : { id }),
    ...(id !== undefined || identifier === undefined ? {} : { identifier }),
    ...(id !== undefined || identifier === undefined || type === undefined ? {} : { identifier_type: type }),
    ...(award === undefined ? {} : { award_number: award }),
    ...(awardTitle === undefined ? {} : { award_title: awardTitle }),
    ...(awardUri === undefined ? {} : { award_uri: awardUri }),
  };
}

/** Free-text subjects (no scheme, or a keyword scheme), distinct, in the record's order. */
function keywordsOf(attributes: Loose): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const s of many(attributes['subjects'])) {
    const entry = typeof s === 'string' ? { subject: s } : obj(s);
    const scheme = str(entry['subjectScheme']);
    if (scheme !== undefined && !/^keywords?$/i.test(scheme)) continue;
    const subject = oneLine(entry['subject']);
    if (subject === undefined || seen.has(subject.toLowerCase())) continue;
    seen.add(subject.toLowerCase());
    out.push(subject);
  }
  return out;
}

/**
 * The short name of a Creative Commons licence from its URL or SPDX id, as the hosted
 * service names licences (`CC BY 4.0`, `CC BY-NC-SA 3.0`, `CC0 1.0`); undefined for another licence.
 */
export function creativeCommonsName(uriOrId: string): string | undefined {
  const url = /creativecommons\.org\/licenses\/([a-z-]+)\/(\d\.\d)/i.exec(uriOrId);
  if (url !== null) return `CC ${(url[1] as string).toUpperCase()} ${url[2] as string}`;
  const zero = /creativecommons\.org\/publicdomain\/zero\/(\d\.\d)/i.exec(uriOrId);
  if (zero !== null) return `CC0 ${zero[1] as string}`;
  const spdx = /^cc-(by(?:-(?:nc|nd|sa))*)-(\d\.\d)$/i.exec(uriOrId);
  if (spdx !== null) return `CC ${(spdx[1] as string).toUpperCase()} ${spdx[2] as string}`;
  const spdxZero = /^cc0-(\d\.\d)$/i.exec(uriOrId);
  return spdxZero === null ? undefined : `CC0 ${spdxZero[1] as string}`;
}

/**
 * The licence: the first rights entry that names one (a URL or an SPDX id that is not an
 * access right such as `info:eu-repo/semantics/openAccess`, or a text naming a Creative
 * Commons licence). Statements without either ("Access to data is restricted") are not licences.
 */
function licenseOf(attributes: Loose): { name?: string; url?: string } {
  for (const r of many(attributes['rightsList']).map(obj)) {
    const text = oneLine(r['rights']);
    const uri = str(r['rightsUri']);
    const spdx = str(r['rightsIdentifier']);
    const url = uri !== undefined && /^https?:\/\//i.test(uri) ? uri : undefined;
    if (url === undefined && spdx === undefined && !/^(cc\b|cc-|cc0|creative commons)/i.test(text ?? '')) continue;
    const name =
      (url === undefined ? undefined : creativeCommonsName(url)) ??
      (spdx === undefined ? undefined : creativeCommonsName(spdx)) ??
      text ??
      spdx;
    return { ...(name === undefined ? {} : { name }), ...(url === undefined ? {} : { url }) };
  }
  return {};
}

/** The publisher's name (a string, or `{name}` in newer records). */
function publisherOf(attributes: Loose): string | undefined {
  const p = attributes['publisher'];
  return oneLine(typeof p === 'string' ? p : obj(p)['name']);
}

/**
 * The repository: the DataCite client when the input names it (`cern.zenodo`), else the
 * publisher, its id the name in lower case with dashes between words (`university-of-virginia`;
 * client ids always hold a dot, so the two never meet).
 */
function repositoryOf(item: DataciteItem, publisher: string | undefined): DatasetRepository | undefined {
  if (item.client !== undefined) return { id: item.client.id, name: item.client.name ?? publisher ?? item.client.id };
  if (publisher === undefined) return undefined;
  const slug = publisher
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return { id: slug === '' ? publisher.toLowerCase() : slug, name: publisher };
}

/** Relation types naming the dataset's publication, most telling first. */
const PUBLICATION_RELATIONS: Readonly<Record<string, number>> = {
  issupplementto: 0,
  isreferencedby: 1,
  iscitedby: 1,
  isdocumentedby: 2,
  isdescribedby: 2,
};

/** A DOI as DataCite relates one (bare, `doi:`, or a doi.org URL), when it is one. */
function relatedDoi(value: string, type: string): string | undefined {
  if (type !== 'doi' && !(type === 'url' && /doi\.org\//i.test(value))) return undefined;
  const doi = bareDoi(value);
  return doi !== undefined && /^10\.\d{4,9}\/\S+$/.test(doi) ? doi : undefined;
}

/** The associated publication, by DOI or PMID. */
function associatedPublicationOf(attributes: Loose, ownDoi: string): DatasetPublicationLink | undefined {
  let best: { rank: number; link: DatasetPublicationLink } | undefined;
  for (const r of many(attributes['relatedIdentifiers']).map(obj)) {
    const rank = PUBLICATION_RELATIONS[str(r['relationType'])?.toLowerCase() ?? ''];
    const value = str(r['relatedIdentifier']);
    const type = str(r['relatedIdentifierType'])?.toLowerCase() ?? '';
    if (rank === undefined || value === undefined || (best !== undefined && best.rank <= rank)) continue;
    const doi = relatedDoi(value, type);
    const pmid = type === 'pmid' && /^\d+$/.test(value) ? value : undefined;
    if (doi !== undefined && doi !== ownDoi) best = { rank, link: { doi } };
    else if (pmid !== undefined) best = { rank, link: { pmid } };
  }
  return best?.link;
}

/** True for a URL on figshare.com. */
function isFigshareUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === 'figshare.com' || host.endsWith('.figshare.com');
  } catch {
    return false;
  }
}

/** Distinct values in order. */
function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Maps one DataCite DOI record to a dataset, whatever its resource type (`isDataset` says
 * which records to import). Throws MalformedRecord for a record without a DOI or a year.
 *
 * @example dataciteToDataset(dataciteItem(JSON.parse(line))).id // 'doi:10.5061/dryad.8515'
 */
export function dataciteToDataset(item: DataciteItem): DatasetRecord {
  const a = item.attributes;
  const doi = bareDoi(a['doi']);
  if (doi === undefined || !/^10\.\S+\/\S+$/.test(doi)) throw new MalformedRecord('a DataCite record without a DOI');
  const year = yearOf(a);
  if (year === undefined) throw new MalformedRecord(`DOI ${doi} has no publication year`);
  const language = languageCode(a['language']);
  const { title, lang: titleLang } = titleOf(a);
  const description = descriptionOf(a);
  const authors = many(a['creators'])
    .map(obj)
    .map(authorOf)
    .filter((x): x is DatasetAuthor => x !== undefined);
  const funding = many(a['fundingReferences'])
    .map(obj)
    .map(fundingOf)
    .filter((f): f is DatasetFunding => f !== undefined);
  const { date, known } = dateOf(a, year);
  const created = datesOf(a, 'Created')[0] ?? dataciteDate(a['created']);
  const modified = datesOf(a, 'Updated').at(-1) ?? dataciteDate(a['updated']);
  // An availability date after publication is the end of an embargo; one on the day (or in
  // the year, when only the year of publication is known) is not.
  const embargo = datesOf(a, 'Available').find((d) => d > known);
  const keywords = keywordsOf(a);
  const license = licenseOf(a);
  const publisher = publisherOf(a);
  const repository = repositoryOf(item, publisher);
  const url = str(a['url']);
  const figshare = url !== undefined && (isFigshareUrl(url) || /figshare/i.test(publisher ?? '')) ? url : undefined;
  const associated = associatedPublicationOf(a, doi);
  const titleLanguage = titleLang ?? language;
  const descriptionLanguage = description === undefined ? undefined : (description.lang ?? language);
  return {
    id: `doi:${doi}`,
    doi,
    title,
    ...(description === undefined ? {} : { description: description.text }),
    year,
    date,
    ...(created === undefined ? {} : { date_created: created }),
    ...(modified === undefined ? {} : { date_modified: modified }),
    ...(embargo === undefined ? {} : { date_embargo: embargo }),
    authors,
    research_orgs: distinct(authors.flatMap((x) => x.affiliations.flatMap((f) => (f.id === undefined ? [] : [f.id])))),
    funders: distinct(funding.flatMap((f) => (f.id === undefined ? [] : [f.id]))),
    ...(funding.length === 0 ? {} : { funder_details: funding }),
    ...(keywords.length === 0 ? {} : { keywords }),
    ...(titleLanguage === undefined ? {} : { language_title: titleLanguage }),
    ...(descriptionLanguage === undefined ? {} : { language_desc: descriptionLanguage }),
    ...(license.name === undefined ? {} : { license_name: license.name }),
    ...(license.url === undefined ? {} : { license_url: license.url }),
    ...(repository === undefined ? {} : { repository }),
    ...(figshare === undefined ? {} : { figshare_url: figshare }),
    ...(associated === undefined ? {} : { associated_publication: associated }),
  };
}

/**
 * One JSON line of DataCite records (a REST API item, or a Public Data File line) as a
 * dataset, or undefined when it is of another resource type. Throws MalformedRecord for a
 * line that is not a JSON object, or a dataset without a DOI or a year.
 */
export function mapDataciteLine(text: string): DatasetRecord | undefined {
  const item = dataciteItem(parseObject(text));
  return isDataset(item.attributes) ? dataciteToDataset(item) : undefined;
}

/** An API page's DOI items with their clients named, and the next page's URL. */
export interface DataciteApiPage {
  readonly items: readonly DataciteItem[];
  readonly next?: string;
}

/**
 * A DataCite REST API answer (`GET /dois?...`: `data` a list; `GET /dois/<doi>`: `data` one
 * item), its items' clients named from `included`. Throws MalformedRecord for text that is
 * not such an answer.
 */
export function dataciteApiPage(text: string): DataciteApiPage {
  const page = parseObject(text);
  const data = page['data'];
  if (data === undefined || data === null || typeof data !== 'object')
    throw new MalformedRecord('not a DataCite API answer (no "data")');
  const names = new Map<string, string>();
  for (const inc of arr(page['included']).map(obj)) {
    const id = str(inc['id']);
    const name = oneLine(obj(inc['attributes'])['name']);
    if (inc['type'] === 'clients' && id !== undefined && name !== undefined) names.set(id, name);
  }
  const items = many(data)
    .map(obj)
    .filter((d) => d['type'] === undefined || d['type'] === 'dois')
    .map((d) => dataciteItem(d, names));
  const next = str(obj(page['links'])['next']);
  return next === undefined ? { items } : { items, next };
}
