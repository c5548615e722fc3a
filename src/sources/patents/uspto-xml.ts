/**
 * USPTO patent XML (DTD v4.0 to v4.7, 2005 on) as patents: one `<us-patent-grant>` (grant
 * full text `ipg…`, grant bibliographic `ipgb…`) or `<us-patent-application>` (application
 * full text `ipa…`) document to one record. The 2001–2004 generations (applications v1.5/v1.6
 * `<patent-application-publication>`, grants v2.4/v2.5 `<PATDOC>`) name every element
 * differently and are refused with a message saying so (`UnsupportedDocument`).
 *
 * What comes from where (spec/schema-2026.md §7.5; test/fixtures/data/patents/README.md):
 * - `id` from `publication-reference` (country, number, kind), `publication_date` its date;
 *   a grant's `granted_date` is the same date.
 * - `application_number`, `date` (filing) from `application-reference`; `priority_date` the
 *   earliest of the foreign priority claims, the US provisional applications and the filing.
 * - `cpc` from `classifications-cpc` (main first), `ipcr` from `classifications-ipcr` (or the
 *   IPC 7 `classification-ipc` of v4.0/v4.1 documents, the only IPC they carry).
 * - inventors from `us-parties/inventors` (v4.2 on), or the applicants of type
 *   `applicant-inventor` (v4.0/v4.1); assignees from `assignees`, with their places as written.
 * - `reference_ids`: the cited US patents (`patcit`), keyed as ids are.
 * - `federal_support`: the government-interest statement of the description (marked
 *   `<?GOVINT?>` in grants, `<?federal-research-statement?>` in applications); the agencies
 *   it names go to `unmatched.funder_names` for the funder matcher.
 * Assignees and funders get no organization ids here: USPTO gives names only. `finish()`
 * matches the assignee names to organizations (`store/organization-links.ts`); a funder
 * matcher from `unmatched.funder_names` is still to come.
 */
import { MalformedRecord } from '../../data/import/formats/common.ts';
import { agenciesNamed } from './federal-agencies.ts';
import type { PatentInventor, PatentRecord } from './native.ts';
import { patentId } from './patent-ids.ts';
import {
  all,
  at,
  descendants,
  isElement,
  parseXml,
  textAt,
  textOf,
  XmlSyntaxError,
  type XmlElement,
} from './xml-tree.ts';

/** A USPTO document of a generation this reader does not map (the record is skipped, saying why). */
export class UnsupportedDocument extends MalformedRecord {}

/** The root element names of the generations before v4, and what they are. */
const OLDER_GENERATIONS: Readonly<Record<string, string>> = {
  PATDOC: 'a grant in USPTO XML v2.4/v2.5 (PATDOC, 2002–2004)',
  'patent-application-publication': 'an application in USPTO XML v1.5/v1.6 (2001–2004)',
};

/** The name of the document's root element, read before parsing (undefined when there is none). */
export function rootName(text: string): string | undefined {
  return /<(?![?!])([A-Za-z_][\w.-]*)/.exec(text)?.[1];
}

/** `20230404` as `2023-04-04`; a day or month `00` (USPTO writes month-only dates so) as `01`. */
export function usptoDate(text: string | undefined): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text?.trim() ?? '');
  if (m === null) return undefined;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  if (Number(mo) > 12 || Number(d) > 31) return undefined;
  return `${y}-${mo === '00' ? '01' : mo}-${d === '00' ? '01' : d}`;
}

const yearOf = (date: string): number => Number(date.slice(0, 4));
const distinct = (values: readonly (string | undefined)[]): string[] => [
  ...new Set(values.filter((v): v is string => v !== undefined && v !== '')),
];

/** An IPC 7 symbol as written in v4.0 (`A41D013/00`, `A61F 2/06`) in the compact form (`A41D13/00`). */
function compactIpc(symbol: string): string | undefined {
  const m = /^([A-H]\d{2}[A-Z])\s*0*(\d+)\s*\/\s*(\d+)/.exec(symbol.trim());
  return m === null ? undefined : `${m[1]}${m[2]}/${m[3]}`;
}

/** A classification element's symbol from its parts: `A61B5/14532`. */
function symbolOf(c: XmlElement): string | undefined {
  const [section, cls, subclass, main, sub] = ['section', 'class', 'subclass', 'main-group', 'subgroup'].map((p) =>
    textAt(c, p),
  );
  if (section === undefined || cls === undefined || subclass === undefined || main === undefined) return undefined;
  return `${section}${cls}${subclass}${main}/${sub ?? '00'}`;
}

function ipcrOf(bib: XmlElement): string[] {
  const ipcr = all(bib, 'classifications-ipcr/classification-ipcr').map(symbolOf);
  const ipc7 = ['main-classification', 'further-classification'].flatMap((p) =>
    all(bib, `classification-ipc/${p}`).map((e) => compactIpc(textOf(e))),
  );
  return distinct([...ipcr, ...ipc7]);
}

function cpcOf(bib: XmlElement): string[] {
  return distinct(
    ['main-cpc', 'further-cpc'].flatMap((group) =>
      all(bib, `classifications-cpc/${group}/classification-cpc`).map(symbolOf),
    ),
  );
}

/** A person or organization of the parties: name and place, as written. */
interface Party {
  readonly first?: string;
  readonly last?: string;
  readonly org?: string;
  readonly city?: string;
  readonly state?: string;
  readonly country?: string;
}

function party(el: XmlElement): Party {
  // Some assignees carry their name without an address book (`<assignee><orgname>`).
  const book = at(el, 'addressbook') ?? el;
  const out: Record<string, string> = {};
  for (const [key, path] of [
    ['first', 'first-name'],
    ['last', 'last-name'],
    ['org', 'orgname'],
    ['city', 'address/city'],
    ['state', 'address/state'],
    ['country', 'address/country'],
  ] as const) {
    const v = textAt(book, path);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

const stateCode = (p: Party): string | undefined =>
  p.state === undefined || p.country === undefined ? undefined : `${p.country}-${p.state}`;

/** The inventors: `us-parties/inventors` (v4.2 on), else the applicants who are the inventors (v4.0/v4.1). */
function inventorsOf(bib: XmlElement): PatentInventor[] {
  let people = all(bib, 'us-parties/inventors/inventor');
  if (people.length === 0)
    people = [...all(bib, 'us-parties/us-applicants/us-applicant'), ...all(bib, 'parties/applicants/applicant')].filter(
      (a) => a.attributes['app-type'] === 'applicant-inventor',
    );
  return people
    .map(party)
    .filter((p) => p.last !== undefined || p.first !== undefined)
    .map((p) => {
      const state = stateCode(p);
      return {
        first_name: p.first ?? '',
        last_name: p.last ?? '',
        ...(p.city === undefined ? {} : { city: p.city }),
        ...(state === undefined ? {} : { state_code: state }),
        ...(p.country === undefined ? {} : { country_code: p.country }),
      };
    });
}

/** The cited US patents and applications, keyed as ids are. */
function referencesOf(bib: XmlElement): string[] {
  const citations = [...all(bib, 'us-references-cited/us-citation'), ...all(bib, 'references-cited/citation')];
  return distinct(
    citations.map((c) => {
      const doc = at(c, 'patcit/document-id');
      if (doc === undefined || textAt(doc, 'country') !== 'US') return undefined;
      return patentId('US', textAt(doc, 'doc-number'), textAt(doc, 'kind'));
    }),
  );
}

/** The earliest date a patent claims priority from, with the filing date as the floor. */
function priorityOf(bib: XmlElement, filing: string | undefined): string | undefined {
  const claimed = [
    ...all(bib, 'priority-claims/priority-claim').map((p) => usptoDate(textAt(p, 'date'))),
    ...all(bib, 'us-related-documents/us-provisional-application').map((p) => usptoDate(textAt(p, 'document-id/date'))),
    filing,
  ].filter((d): d is string => d !== undefined);
  return claimed.sort()[0];
}

/** Instructions marking the government-interest statement: grants, then applications. */
const GOVERNMENT_INTEREST = new Set(['GOVINT', 'federal-research-statement']);

/**
 * The government-interest statement of the description: the paragraphs between the lead
 * and tail instructions (headings left out), or undefined without one.
 */
export function governmentInterest(root: XmlElement): string | undefined {
  const parts: string[] = [];
  let inside = false;
  for (const node of at(root, 'description')?.children ?? []) {
    if (typeof node === 'object' && 'instruction' in node) {
      if (GOVERNMENT_INTEREST.has(node.instruction)) inside = /end="lead"/.test(node.body);
    } else if (inside && isElement(node) && node.name !== 'heading') {
      const text = textOf(node);
      if (text !== '') parts.push(text);
    }
  }
  return parts.length === 0 ? undefined : parts.join(' ');
}

/** The abstract: its paragraphs, each whitespace-collapsed, joined by a space. */
function abstractOf(root: XmlElement): string | undefined {
  const abstract = at(root, 'abstract');
  if (abstract === undefined) return undefined;
  const paragraphs = descendants(abstract, 'p').map(textOf);
  const text = (paragraphs.length > 0 ? paragraphs.join(' ') : textOf(abstract)).replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}

/** Maps one parsed v4 document (`us-patent-grant` or `us-patent-application`) to a patent. */
export function usptoToPatent(root: XmlElement): PatentRecord {
  const grant = root.name === 'us-patent-grant';
  if (!grant && root.name !== 'us-patent-application')
    throw new MalformedRecord(`not a USPTO patent document (root element <${root.name}>)`);
  const bib = at(root, grant ? 'us-bibliographic-data-grant' : 'us-bibliographic-data-application');
  if (bib === undefined) throw new MalformedRecord(`<${root.name}> without its bibliographic data`);
  const pub = at(bib, 'publication-reference/document-id');
  const country = textAt(pub, 'country');
  const id = patentId(country, textAt(pub, 'doc-number'), textAt(pub, 'kind'));
  if (id === undefined || country === undefined)
    throw new MalformedRecord('a document without a publication number and kind code');
  const published = usptoDate(textAt(pub, 'date'));
  if (published === undefined) throw new MalformedRecord(`${id} has no valid publication date`);
  const title = textAt(bib, 'invention-title');
  if (title === undefined) throw new MalformedRecord(`${id} has no title`);
  const app = at(bib, 'application-reference/document-id');
  const applicationNumber = textAt(app, 'doc-number');
  const filed = usptoDate(textAt(app, 'date'));
  const priority = priorityOf(bib, filed);
  const abstract = abstractOf(root);
  const claims = descendants(at(root, 'claims'), 'claim');
  const claimCount = Number(textAt(bib, 'number-of-claims') ?? claims.length);
  const claimsText = claims.map(textOf).join('\n');
  const inventors = inventorsOf(bib);
  const assignees = all(bib, 'assignees/assignee').map(party);
  const assigneeNames = distinct(
    assignees.map((a) => a.org ?? ([a.first, a.last].filter((n) => n !== undefined).join(' ') || undefined)),
  );
  const statement = governmentInterest(root);
  const funderNames = statement === undefined ? [] : agenciesNamed(statement);
  return {
    id,
    title,
    ...(abstract === undefined ? {} : { abstract }),
    jurisdiction: country.toUpperCase(),
    kind: (textAt(pub, 'kind') as string).toUpperCase(),
    filing_status: grant ? 'Grant' : 'Application',
    ...(applicationNumber === undefined ? {} : { application_number: applicationNumber }),
    ...(filed === undefined ? {} : { date: filed, year: yearOf(filed) }),
    ...(priority === undefined ? {} : { priority_date: priority, priority_year: yearOf(priority) }),
    publication_date: published,
    publication_year: yearOf(published),
    ...(grant ? { granted_date: published, granted_year: yearOf(published) } : {}),
    cpc: cpcOf(bib),
    ipcr: ipcrOf(bib),
    ...(Number.isInteger(claimCount) && claimCount > 0 ? { claims_amount: claimCount } : {}),
    inventor_names: inventors.map((p) => `${p.first_name} ${p.last_name}`.trim()),
    inventors,
    researchers: [],
    assignee_names: assigneeNames,
    original_assignee_names: assigneeNames,
    assignees: [],
    original_assignees: [],
    ...listField('assignee_cities', distinct(assignees.map((a) => a.city))),
    ...listField('assignee_countries', distinct(assignees.map((a) => a.country))),
    ...listField('assignee_state_codes', distinct(assignees.map(stateCode))),
    reference_ids: referencesOf(bib),
    ...(statement === undefined ? {} : { federal_support: [statement], funder_countries: ['US'] }),
    funders: [],
    ...(claimsText === '' ? {} : { claims_text: claimsText }),
    ...(funderNames.length === 0 ? {} : { unmatched: { funder_names: funderNames } }),
  };
}

/** `{[name]: values}`, or nothing for an empty list (optional fields are left out). */
function listField<K extends string>(name: K, values: readonly string[]): { [P in K]?: readonly string[] } {
  return (values.length === 0 ? {} : { [name]: values }) as { [P in K]?: readonly string[] };
}

/**
 * Maps one document's text (from its `<?xml` declaration to its root's end) to a patent:
 * `UnsupportedDocument` for a generation before v4, `MalformedRecord` for text that is not
 * well-formed XML or not a patent document.
 */
export function mapUsptoDocument(text: string): PatentRecord {
  const root = rootName(text);
  if (root === undefined) throw new MalformedRecord('no XML element');
  const older = OLDER_GENERATIONS[root];
  if (older !== undefined)
    throw new UnsupportedDocument(
      `${older} is not read: only the v4 DTDs of 2005 on (<us-patent-grant>, <us-patent-application>) are`,
    );
  let parsed: XmlElement;
  try {
    parsed = parseXml(text);
  } catch (err) {
    if (err instanceof XmlSyntaxError) throw new MalformedRecord(`not well-formed XML: ${err.message}`);
    throw err;
  }
  return usptoToPatent(parsed);
}
