/**
 * ClinicalTrials.gov API v2 study records as clinical trials. One study object
 * (`protocolSection`, `derivedSection`, `hasResults`, sometimes `resultsSection`) is one
 * trial, in each shape the registry publishes (the containers are read by
 * `import-ctgov-files.ts`): the bulk `ctg-studies.json.zip` (one study per entry), the API's
 * pages (`{"studies": [...], "nextPageToken": ...}`), the website's JSON download (an array
 * of studies) and JSON Lines of studies. Every study of the registry is a trial record here,
 * observational and expanded-access ones included, as the hosted source has them.
 *
 * The dump names organizations without identifiers: sponsors and collaborators are kept by
 * name (`sponsors`), investigators' affiliations by name, and `research_orgs`/`funders` stay
 * empty until an affiliation matcher resolves them (LAYOUT.md, "Organizations"). References
 * keep their PMID (and the DOI their citation gives) in `publications`; the held
 * publications they name are found when the trial is written (LAYOUT.md, "Publications").
 */
import {
  arr,
  bareDoi,
  isoDate,
  MalformedRecord,
  num,
  obj,
  splitName,
  str,
  type Loose,
} from '../../data/import/formats/common.ts';
import type {
  ClinicalTrialRecord,
  PublicationLink,
  TrialIntervention,
  TrialInvestigator,
  TrialOutcomeMeasure,
  TrialSecondaryId,
  TrialSponsor,
} from './native.ts';
import { nihGrantId } from './nih-project-number.ts';

export const CTGOV_REGISTRY = 'ClinicalTrials.gov';

/** An NCT number: `NCT` and eight digits (the registry's own format). */
const NCT_ID = /^NCT\d{8}$/;

/** True for a value shaped like an API v2 study (what `studiesOf` keeps and detection looks for). */
export function isCtgovStudy(value: unknown): boolean {
  return str(obj(obj(obj(value)['protocolSection'])['identificationModule'])['nctId']) !== undefined;
}

/**
 * The studies of one JSON document of any published shape: a study, a page of the API
 * (`studies`), or an array of studies. Throws MalformedRecord for anything else; an element
 * that is no study is returned as it is, for `ctgovToTrial` to refuse on its own.
 */
export function studiesOf(document: unknown): unknown[] {
  if (Array.isArray(document)) return document;
  const o = obj(document);
  if (Array.isArray(o['studies'])) return o['studies'];
  if ('protocolSection' in o) return [document];
  throw new MalformedRecord('not a ClinicalTrials.gov study, nor a page or list of studies');
}

/** Parses one JSON text (a line, an array element, a zip entry), or throws MalformedRecord. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new MalformedRecord(`not valid JSON (${(err as Error).message})`);
  }
}

/** A registry date (`2024`, `2024-12` or `2024-12-16`) as `YYYY-MM-DD`, or undefined when it is none. */
export function registryDate(v: unknown): string | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(str(v) ?? '');
  if (m === null) return undefined;
  const [, y = '', mo, d] = m;
  const month = mo === undefined ? undefined : Number(mo);
  const day = d === undefined ? undefined : Number(d);
  if ((month !== undefined && (month < 1 || month > 12)) || (day !== undefined && (day < 1 || day > 31)))
    return undefined;
  return isoDate(Number(y), month, day);
}

/** `HEALTH_SERVICES_RESEARCH` as `Health Services Research`. */
function words(value: string): string {
  return value
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

const strings = (v: unknown): string[] => arr(v).flatMap((x) => str(x) ?? []);
const distinct = <T>(items: readonly T[]): T[] => [...new Set(items)];

/** `PHASE1/PHASE2` as `Phase 1/Phase 2`; `NA` (no phases, as for devices) as `Not Applicable`. */
export function phaseOf(phases: readonly string[]): string | undefined {
  if (phases.length === 0) return undefined;
  return phases.map((p) => (p === 'NA' ? 'Not Applicable' : words(p).replace(/Phase(\d)/, 'Phase $1'))).join('/');
}

/** `sex` as the hosted service writes gender: `All`, `Female`, `Male`. */
function genderOf(sex: string | undefined): string | undefined {
  return sex === undefined ? undefined : words(sex);
}

/** The design as `Label: Value` items (a facet reads them alone); `NA` values say nothing and are left out. */
function designsOf(design: Loose): string[] {
  const info = obj(design['designInfo']);
  const parts: [string, unknown][] = [
    ['Allocation', info['allocation']],
    ['Intervention Model', info['interventionModel']],
    ['Observational Model', info['observationalModel']],
    ['Time Perspective', info['timePerspective']],
    ['Primary Purpose', info['primaryPurpose']],
    ['Masking', obj(info['maskingInfo'])['masking']],
  ];
  return parts.flatMap(([label, value]) => {
    const v = str(value);
    return v === undefined || v === 'NA' ? [] : [`${label}: ${words(v)}`];
  });
}

function interventionsOf(module: Loose): TrialIntervention[] {
  return arr(module['interventions']).flatMap((x) => {
    const i = obj(x);
    const name = str(i['name']);
    if (name === undefined) return [];
    const type = str(i['type']);
    const description = str(i['description']);
    const arms = strings(i['armGroupLabels']);
    const other = strings(i['otherNames']);
    return [
      {
        ...(type === undefined ? {} : { type }),
        name,
        ...(description === undefined ? {} : { description }),
        ...(arms.length === 0 ? {} : { arm_group_labels: arms }),
        ...(other.length === 0 ? {} : { other_names: other }),
      },
    ];
  });
}

function outcomesOf(module: Loose): TrialOutcomeMeasure[] {
  const kinds = [
    ['primary', 'primaryOutcomes'],
    ['secondary', 'secondaryOutcomes'],
    ['other', 'otherOutcomes'],
  ] as const;
  return kinds.flatMap(([type, key]) =>
    arr(module[key]).flatMap((x) => {
      const o = obj(x);
      const measure = str(o['measure']);
      if (measure === undefined) return [];
      const description = str(o['description']);
      const timeFrame = str(o['timeFrame']);
      return [
        {
          type,
          measure,
          ...(description === undefined ? {} : { description }),
          ...(timeFrame === undefined ? {} : { time_frame: timeFrame }),
        },
      ];
    }),
  );
}

/**
 * A person as the registry names them: the name before the first comma (the rest are
 * degrees: `Frank Weinberg, MD, PhD`), split into first and last name.
 */
function investigator(name: string, role: string, affiliation: string | undefined): TrialInvestigator {
  const bare = (name.split(',')[0] ?? name).trim() || name;
  const { first_name, last_name } = splitName(bare);
  return {
    first_name,
    last_name,
    ...(bare === name ? {} : { raw_name: name }),
    role,
    affiliations: affiliation === undefined ? [] : [{ name: affiliation }],
  };
}

/**
 * The overall officials, then the responsible party when it is an investigator the
 * officials do not already name (the same person is often both).
 */
function investigatorsOf(protocol: Loose): TrialInvestigator[] {
  const out: TrialInvestigator[] = [];
  const seen = new Set<string>();
  // First and last word of the bare name: `Kari A Stephens, Ph.D.` and `Kari Stephens` are one person.
  const key = (name: string): string => {
    const words = (name.split(',')[0] ?? name).trim().toLowerCase().split(/\s+/);
    return `${words[0] ?? ''} ${words[words.length - 1] ?? ''}`;
  };
  for (const x of arr(obj(protocol['contactsLocationsModule'])['overallOfficials'])) {
    const o = obj(x);
    const name = str(o['name']);
    if (name === undefined) continue;
    seen.add(key(name));
    out.push(investigator(name, str(o['role']) ?? 'INVESTIGATOR', str(o['affiliation'])));
  }
  const party = obj(obj(protocol['sponsorCollaboratorsModule'])['responsibleParty']);
  const type = str(party['type']);
  const name = str(party['investigatorFullName']);
  if (name !== undefined && type !== undefined && type !== 'SPONSOR' && !seen.has(key(name)))
    out.push(investigator(name, type, str(party['investigatorAffiliation'])));
  return out;
}

function sponsorsOf(module: Loose): TrialSponsor[] {
  const one = (x: unknown, role: TrialSponsor['role']): TrialSponsor[] => {
    const s = obj(x);
    const name = str(s['name']);
    const cls = str(s['class']);
    return name === undefined ? [] : [{ name, role, ...(cls === undefined ? {} : { class: cls }) }];
  };
  return [
    ...one(module['leadSponsor'], 'lead_sponsor'),
    ...arr(module['collaborators']).flatMap((c) => one(c, 'collaborator')),
  ];
}

/**
 * The secondary ids as listed, and the sponsor's own study id when the registry types it
 * (an NIH, FDA, VA, ... number): an untyped one is the sponsor's internal protocol number.
 */
function secondaryIdsOf(identification: Loose): TrialSecondaryId[] {
  const one = (x: unknown, requireType: boolean): TrialSecondaryId[] => {
    const s = obj(x);
    const id = str(s['id']);
    const type = str(s['type']);
    const domain = str(s['domain']);
    if (id === undefined || (requireType && type === undefined)) return [];
    return [{ id, ...(type === undefined ? {} : { type }), ...(domain === undefined ? {} : { domain }) }];
  };
  const out = [
    ...one(identification['orgStudyIdInfo'], true),
    ...arr(identification['secondaryIdInfos']).flatMap((s) => one(s, false)),
  ];
  const seen = new Set<string>();
  return out.filter((s) => {
    const k = `${s.type ?? ''}\u0000${s.id}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A DOI a reference's citation text gives (`... 2021;21(1):743. doi: 10.1186/s12885-021-08460-w.`). */
export function citationDoi(citation: string | undefined): string | undefined {
  const m = /\bdoi:?\s*(10\.\d{4,9}\/\S+)/i.exec(citation ?? '');
  return m === null ? undefined : bareDoi((m[1] as string).replace(/[.,;]+$/, ''));
}

/**
 * Every reference the registry lists (background, results and derived ones alike: all are
 * named by the trial's record) that a PMID or a DOI identifies, once each.
 */
function publicationsOf(module: Loose): PublicationLink[] {
  const out: PublicationLink[] = [];
  const seen = new Set<string>();
  for (const x of arr(module['references'])) {
    const r = obj(x);
    const pmid = str(r['pmid']);
    const doi = citationDoi(str(r['citation']));
    if (pmid === undefined && doi === undefined) continue;
    const k = pmid === undefined ? `doi:${doi ?? ''}` : `pmid:${pmid}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ ...(doi === undefined ? {} : { doi }), ...(pmid === undefined ? {} : { pmid }) });
  }
  return out;
}

/** Every calendar year from `start` to `end` (the start year alone without an end, or an end before it). */
function yearsBetween(start: string | undefined, end: string | undefined): number[] {
  const from = start === undefined ? undefined : Number(start.slice(0, 4));
  const to = end === undefined ? undefined : Number(end.slice(0, 4));
  if (from === undefined) return to === undefined ? [] : [to];
  const last = to === undefined || to < from ? from : to;
  return Array.from({ length: last - from + 1 }, (_, k) => from + k);
}

/**
 * Maps one API v2 study to a trial; throws MalformedRecord for a value that is no study, a
 * study without a well-formed NCT number, or one without any title.
 */
export function ctgovToTrial(study: unknown): ClinicalTrialRecord {
  if (study === null || typeof study !== 'object' || Array.isArray(study))
    throw new MalformedRecord('a study is not a JSON object');
  const protocol = obj((study as Loose)['protocolSection']);
  const identification = obj(protocol['identificationModule']);
  const id = str(identification['nctId']);
  if (id === undefined) throw new MalformedRecord('a study without protocolSection.identificationModule.nctId');
  if (!NCT_ID.test(id)) throw new MalformedRecord(`study ${JSON.stringify(id)} is not an NCT number`);
  const briefTitle = str(identification['briefTitle']);
  const title = str(identification['officialTitle']) ?? briefTitle;
  if (title === undefined) throw new MalformedRecord(`study ${id} has no title`);

  const status = obj(protocol['statusModule']);
  const start = registryDate(obj(status['startDateStruct'])['date']);
  const end =
    registryDate(obj(status['completionDateStruct'])['date']) ??
    registryDate(obj(status['primaryCompletionDateStruct'])['date']);
  const years = yearsBetween(start, end);
  const description = obj(protocol['descriptionModule']);
  const abstract = distinct(strings([description['briefSummary'], description['detailedDescription']])).join('\n\n');
  const conditions = obj(protocol['conditionsModule']);
  const derived = obj((study as Loose)['derivedSection']);
  const mesh = distinct(
    ['conditionBrowseModule', 'interventionBrowseModule'].flatMap((m) =>
      arr(obj(derived[m])['meshes']).flatMap((x) => str(obj(x)['term']) ?? []),
    ),
  );
  const design = obj(protocol['designModule']);
  const enrollment = num(obj(design['enrollmentInfo'])['count']);
  const arms = obj(protocol['armsInterventionsModule']);
  const eligibility = obj(protocol['eligibilityModule']);
  const secondary = secondaryIdsOf(identification);
  const grants = distinct(secondary.flatMap((s) => (s.type === 'NIH' ? (nihGrantId(s.id) ?? []) : [])));
  const publications = publicationsOf(obj(protocol['referencesModule']));
  const sponsors = sponsorsOf(obj(protocol['sponsorCollaboratorsModule']));
  const firstPosted = registryDate(obj(status['studyFirstPostDateStruct'])['date']);

  const optional = {
    brief_title: briefTitle,
    acronym: str(identification['acronym']),
    abstract: abstract === '' ? undefined : abstract,
    conditions: strings(conditions['conditions']),
    mesh_terms: mesh,
    overall_status: str(status['overallStatus']),
    start_date: start,
    end_date: end,
    active_years: years,
    phase: phaseOf(strings(design['phases'])),
    study_type: str(design['studyType']),
    study_designs: designsOf(design),
    study_arms: distinct(arr(arms['armGroups']).flatMap((a) => str(obj(a)['label']) ?? [])),
    interventions: interventionsOf(arms),
    study_outcome_measures: outcomesOf(obj(protocol['outcomesModule'])),
    study_eligibility_criteria: str(eligibility['eligibilityCriteria']),
    gender: genderOf(str(eligibility['sex'])),
    study_minimum_age: str(eligibility['minimumAge']),
    study_maximum_age: str(eligibility['maximumAge']),
    study_participants:
      enrollment !== undefined && Number.isInteger(enrollment) && enrollment >= 0 ? enrollment : undefined,
    sponsors,
    associated_grant_ids: grants,
    secondary_ids: secondary,
    publications,
    date_inserted: firstPosted,
  };
  // Missing values are left out, as the hosted service leaves them out of its answers.
  const present = Object.fromEntries(
    Object.entries(optional).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
  ) as Partial<ClinicalTrialRecord>;
  return {
    id,
    title,
    ...present,
    investigators: investigatorsOf(protocol),
    research_orgs: [],
    funders: [],
    registry: CTGOV_REGISTRY,
    linkout: `https://clinicaltrials.gov/study/${id}`,
  };
}
