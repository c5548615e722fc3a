// ClinicalTrials.gov API v2 studies as clinical trials, in every shape the registry publishes:
// the real sample (JSON Lines, 536 studies) and, built from its unmodified studies, the bulk
// `ctg-studies.json.zip` (one `NN/NCTxxxxxxxx.json` per study), the API's pages and the
// website's JSON array. Expected counts and values are read from the fixture file itself or
// copied from it by hand (named in each test). Bad input is refused study by study, with
// where it is; unreadable archives and records past the limits fail with the import's codes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { MalformedRecord } from '../../../src/data/import/formats/common.ts';
import { InputRefused, DEFAULT_IMPORT_LIMITS } from '../../../src/data/import/limits.ts';
import { QuarryError } from '../../../src/errors/index.ts';
import {
  citationDoi,
  ctgovToTrial,
  isCtgovStudy,
  registryDate,
  studiesOf,
} from '../../../src/sources/clinical_trials/import-ctgov.ts';
import {
  readCtgovStudies,
  type StudyPlace,
  type StudyRead,
} from '../../../src/sources/clinical_trials/import-ctgov-files.ts';
import type { ClinicalTrialRecord } from '../../../src/sources/clinical_trials/native.ts';

/** A raw study, read loosely as JSON. */
type Study = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SAMPLE = fileURLToPath(new URL('../../fixtures/data/clinical_trials/ctgov_v2_studies.jsonl.gz', import.meta.url));
const LINES = gunzipSync(readFileSync(SAMPLE)).toString('utf8').trim().split('\n');
const STUDIES: Study[] = LINES.map((l) => JSON.parse(l) as Study);
const nctOf = (s: Study): string => s['protocolSection']['identificationModule']['nctId'] as string;
const dir = mkdtempSync(join(tmpdir(), 'quarry-ctgov-'));

async function readAll(path: string, limits = DEFAULT_IMPORT_LIMITS): Promise<StudyRead[]> {
  const out: StudyRead[] = [];
  for await (const s of readCtgovStudies(path, limits)) out.push(s);
  return out;
}
const records = (reads: readonly StudyRead[]): ClinicalTrialRecord[] =>
  reads.flatMap((s) => ('record' in s ? [s.record] : []));
const refusals = (reads: readonly StudyRead[]): { place: StudyPlace; malformed: string }[] =>
  reads.flatMap((s) => ('malformed' in s ? [s] : []));

/** The sample's studies as the bulk download lays them out: `35/NCT02252835.json`, pretty-printed. */
function bulkZip(studies: readonly Study[], extra: Record<string, Uint8Array> = {}): string {
  const entries: Record<string, Uint8Array> = { ...extra };
  for (const s of studies) entries[`${nctOf(s).slice(-2)}/${nctOf(s)}.json`] = strToU8(JSON.stringify(s, null, 2));
  const path = join(dir, `ctg-studies-${Object.keys(entries).length}.json.zip`);
  writeFileSync(path, zipSync(entries));
  return path;
}

/** The studies in pages of `size`, as the API answers (`studies`, `nextPageToken` but on the last page). */
function pages(studies: readonly Study[], size: number): object[] {
  const out: object[] = [];
  for (let k = 0; k < studies.length; k += size)
    out.push({
      studies: studies.slice(k, k + size),
      ...(k + size < studies.length ? { nextPageToken: `token${k + size}` } : {}),
    });
  return out;
}

function write(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the real sample (JSON Lines of API v2 studies)', async () => {
  const reads = await readAll(SAMPLE);
  const byId = new Map(records(reads).map((r) => [r.id, r]));

  test('every study of the file is one trial, keyed by its NCT number as given', () => {
    assert.equal(STUDIES.length, 536);
    assert.deepEqual(refusals(reads), []);
    assert.deepEqual(
      records(reads).map((r) => r.id),
      STUDIES.map(nctOf),
    );
    assert.equal(byId.size, 536);
    assert.deepEqual(
      reads.slice(0, 2).map((s) => s.place),
      [
        { name: SAMPLE, line: 1 },
        { name: SAMPLE, line: 2 },
      ],
    );
  });

  test('NCT06576635 field by field (the file’s first line)', () => {
    const raw = STUDIES[0]!;
    const trial = byId.get('NCT06576635')!;
    const p = raw['protocolSection'];
    assert.equal(trial.title, 'LUNG-05: Investigating Chemotherapy Effectiveness for NSCLC Metastatic Patients');
    assert.equal(trial.brief_title, p.identificationModule.briefTitle);
    assert.equal(trial.acronym, 'LUNG-05');
    assert.equal(
      trial.abstract,
      `${p.descriptionModule.briefSummary as string}\n\n${p.descriptionModule.detailedDescription as string}`,
    );
    assert.deepEqual(trial.conditions, ['NSCLC']);
    // No condition MeSH terms; the intervention ones, in order.
    assert.deepEqual(trial.mesh_terms, ['Docetaxel', 'Paclitaxel', 'Gemcitabine', 'Pemetrexed', 'Vinorelbine']);
    assert.equal(trial.overall_status, 'RECRUITING');
    assert.equal(trial.start_date, '2024-12-16');
    // The completion date `2026-09`, completed to a day.
    assert.equal(trial.end_date, '2026-09-01');
    assert.deepEqual(trial.active_years, [2024, 2025, 2026]);
    assert.equal(trial.phase, 'Not Applicable');
    assert.equal(trial.study_type, 'INTERVENTIONAL');
    // allocation NA says nothing and is left out.
    assert.deepEqual(trial.study_designs, [
      'Intervention Model: Single Group',
      'Primary Purpose: Treatment',
      'Masking: None',
    ]);
    assert.deepEqual(trial.study_arms, ['Single Arm']);
    assert.equal(trial.interventions?.length, 5);
    assert.deepEqual(trial.interventions?.[0], {
      type: 'DRUG',
      name: 'Docetaxel',
      description: '75 mg/m2 IV over 1-hour Day 1 of each 21-day cycle',
      arm_group_labels: ['Single Arm'],
    });
    assert.deepEqual(
      trial.study_outcome_measures?.map((o) => o.type),
      ['primary', 'secondary', 'secondary', 'secondary', 'other', 'other'],
    );
    assert.deepEqual(trial.study_outcome_measures?.[0], {
      type: 'primary',
      measure: p.outcomesModule.primaryOutcomes[0].measure,
      description: p.outcomesModule.primaryOutcomes[0].description,
      time_frame: 'Every 6-8 weeks through study completion, an average of 2 years',
    });
    assert.equal(trial.study_eligibility_criteria, p.eligibilityModule.eligibilityCriteria);
    assert.equal(trial.gender, 'All');
    assert.equal(trial.study_minimum_age, '18 Years');
    assert.equal(trial.study_maximum_age, undefined);
    assert.equal(trial.study_participants, 29);
    // The official and the responsible party are one person: named once, degrees kept aside.
    assert.deepEqual(trial.investigators, [
      {
        first_name: 'Frank',
        last_name: 'Weinberg',
        raw_name: 'Frank Weinberg, MD, PhD',
        role: 'PRINCIPAL_INVESTIGATOR',
        affiliations: [{ name: 'University of Illinois at Chicago' }],
      },
    ]);
    assert.deepEqual(trial.sponsors, [
      { name: 'University of Illinois at Chicago', role: 'lead_sponsor', class: 'OTHER' },
    ]);
    // No identifiers in the dump: organizations wait for the matcher.
    assert.deepEqual(trial.research_orgs, []);
    assert.deepEqual(trial.funders, []);
    assert.equal(trial.secondary_ids, undefined);
    assert.equal(trial.associated_grant_ids, undefined);
    assert.equal(trial.publications, undefined);
    assert.equal(trial.registry, 'ClinicalTrials.gov');
    assert.equal(trial.linkout, 'https://clinicaltrials.gov/study/NCT06576635');
    assert.equal(trial.date_inserted, '2024-08-29');
    // Nothing is null, and no field the hosted service would answer empty is present.
    for (const [k, v] of Object.entries(trial)) {
      assert.notEqual(v, null, k);
      if (Array.isArray(v) && !['investigators', 'research_orgs', 'funders'].includes(k))
        assert.ok(v.length > 0, `${k} is empty`);
    }
  });

  test('NCT06000007: an NIH grant number becomes the NIH grant’s id; a second naming of the PI is dropped', () => {
    const trial = byId.get('NCT06000007')!;
    assert.deepEqual(trial.secondary_ids, [{ id: '1R44AT011593-01', type: 'NIH' }]);
    assert.deepEqual(trial.associated_grant_ids, ['nih.1R44AT011593-01']);
    assert.deepEqual(trial.sponsors, [
      { name: 'University of Washington', role: 'lead_sponsor', class: 'OTHER' },
      {
        name: 'National Center for Complementary and Integrative Health (NCCIH)',
        role: 'collaborator',
        class: 'NIH',
      },
    ]);
    // `Kari A Stephens, Ph.D.` (official) and `Kari Stephens` (responsible party) are one person.
    assert.deepEqual(trial.investigators, [
      {
        first_name: 'Kari A',
        last_name: 'Stephens',
        raw_name: 'Kari A Stephens, Ph.D.',
        role: 'PRINCIPAL_INVESTIGATOR',
        affiliations: [{ name: 'University of Washington' }],
      },
    ]);
    assert.equal(
      trial.title,
      'Development and Implementation of a Behavioral Digital Therapeutic Designed to Support, Educate, Screen and Remotely Monitor Patients with Chronic Pain',
    );
    assert.equal(trial.phase, 'Phase 3');
    assert.deepEqual(trial.study_designs, [
      'Allocation: Randomized',
      'Intervention Model: Parallel',
      'Primary Purpose: Treatment',
      'Masking: None',
    ]);
    assert.deepEqual(trial.study_arms, ['Treatment as usual', 'Intervention arm']);
    assert.deepEqual(trial.mesh_terms, ['Chronic Pain']);
    assert.deepEqual(trial.active_years, [2023, 2024]);
    assert.equal(trial.end_date, '2024-07-30');
    assert.equal(trial.study_participants, 108);
    // Its one reference has neither PMID nor DOI: nothing to find a publication by.
    assert.equal(trial.publications, undefined);
  });

  test('NCT04508153: officials, collaborators and references with PMID and DOI', () => {
    const trial = byId.get('NCT04508153')!;
    assert.deepEqual(
      trial.investigators.map((i) => [i.first_name, i.last_name, i.raw_name, i.affiliations[0]?.name]),
      [
        ['Holly', 'Richter', 'Holly Richter, MD PhD', 'University of Alabama at Birmingham'],
        ['Milena', 'Weinstein', 'Milena Weinstein, MD', 'Massachusetts General Hospital'],
        ['Gena', 'Dunnivan', 'Gena Dunnivan, MD', 'University of New Mexico'],
        ['Noelani M', 'Guaderrama', 'Noelani M Guaderrama, MD', 'Southern California Permanentae'],
      ],
    );
    assert.deepEqual(trial.sponsors, [
      { name: 'Renovia, Inc.', role: 'lead_sponsor', class: 'INDUSTRY' },
      { name: 'OBVIO HEALTH USA, Inc.', role: 'collaborator', class: 'UNKNOWN' },
      { name: 'University of Alabama at Birmingham', role: 'collaborator', class: 'OTHER' },
    ]);
    assert.deepEqual(trial.publications, [
      { doi: '10.1097/aog.0000000000004725', pmid: '35271539' },
      { doi: '10.1016/j.cct.2021.106406', pmid: '33866003' },
    ]);
    assert.equal(trial.publication_ids, undefined, 'held publication ids are found when the trial is written');
    assert.equal(trial.gender, 'Female');
    assert.equal(trial.study_maximum_age, '100 Years');
    // The completion date, not the primary completion date, ends the trial.
    assert.equal(trial.end_date, '2021-09-01');
    assert.deepEqual(trial.active_years, [2020, 2021]);
    assert.deepEqual(trial.mesh_terms, ['Urinary Incontinence', 'Enuresis', 'Urinary Incontinence, Stress']);
    assert.equal(trial.study_outcome_measures?.length, 15);
  });

  test('the counts of the sample: NIH numbers, PMIDs, phases, officials', () => {
    const all = records(reads);
    const nihListed = (s: Study): boolean =>
      ((s['protocolSection']['identificationModule']['secondaryIdInfos'] ?? []) as Study[]).some(
        (x) => x['type'] === 'NIH',
      );
    assert.equal(STUDIES.filter(nihListed).length, 19);
    assert.equal(all.filter((r) => r.secondary_ids?.some((x) => x.type === 'NIH') === true).length, 21);
    // Of 20 NIH secondary ids and 3 typed org study ids, 8 distinct ones are full project numbers.
    assert.deepEqual(all.flatMap((r) => r.associated_grant_ids ?? []).sort(), [
      'nih.1R41MH118130-01',
      'nih.1R41MH134704-01',
      'nih.1R44AT011593-01',
      'nih.2R42MH123357-02',
      'nih.2R44AA026234-02',
      'nih.2R44MD008848-02',
      'nih.5R44AA026234-03',
      'nih.7R01CA285331-02',
    ]);
    const pmids = (s: Study): string[] =>
      ((s['protocolSection']['referencesModule']?.['references'] ?? []) as Study[]).flatMap(
        (x) => (x['pmid'] as string | undefined) ?? [],
      );
    assert.equal(STUDIES.filter((s) => pmids(s).length > 0).length, 161);
    assert.equal(all.filter((r) => r.publications?.some((p) => p.pmid !== undefined) === true).length, 161);
    // Every PMID of every study is kept, once per study.
    for (const [k, study] of STUDIES.entries())
      assert.deepEqual(
        (all[k]!.publications ?? []).flatMap((p) => p.pmid ?? []),
        [...new Set(pmids(study))],
        nctOf(study),
      );
    const phases = new Map<string, number>();
    for (const r of all) phases.set(r.phase ?? '-', (phases.get(r.phase ?? '-') ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(phases), {
      'Not Applicable': 256,
      '-': 119,
      'Phase 2': 60,
      'Phase 3': 40,
      'Phase 4': 18,
      'Phase 1/Phase 2': 18,
      'Phase 1': 15,
      'Phase 2/Phase 3': 9,
      'Early Phase 1': 1,
    });
    assert.equal(all.filter((r) => r.study_type === 'OBSERVATIONAL').length, 119);
    // Officials in 370 studies; a responsible investigator alone names one in others.
    const officials = (s: Study): unknown[] =>
      (s['protocolSection']['contactsLocationsModule']?.['overallOfficials'] ?? []) as unknown[];
    const party = (s: Study): Study =>
      (s['protocolSection']['sponsorCollaboratorsModule']['responsibleParty'] ?? {}) as Study;
    assert.equal(STUDIES.filter((s) => officials(s).length > 0).length, 370);
    assert.equal(
      all.filter((r) => r.investigators.length > 0).length,
      STUDIES.filter(
        (s) =>
          officials(s).length > 0 || (party(s)['investigatorFullName'] !== undefined && party(s)['type'] !== 'SPONSOR'),
      ).length,
    );
  });
});

describe('the other published shapes give the same trials', () => {
  const expected = STUDIES.map((s) => ctgovToTrial(s));

  test('the bulk ctg-studies.json.zip: one pretty-printed study per entry, in folders; other files ignored', async () => {
    const zip = bulkZip(STUDIES, { 'README.txt': strToU8('not a study') });
    const reads = await readAll(zip);
    assert.deepEqual(refusals(reads), []);
    assert.equal(reads.length, 536);
    assert.deepEqual(records(reads), expected);
    assert.deepEqual(reads[0]!.place, { name: `${zip}!35/NCT06576635.json`, line: 1 });
  });

  test('API pages: one per line (as the API answers), as JSON Lines, and one pretty-printed page per file', async () => {
    const onLines = write(
      'pages.json',
      pages(STUDIES, 100)
        .map((p) => JSON.stringify(p))
        .join('\n') + '\n',
    );
    const asJsonl = write(
      'pages.jsonl.gz',
      gzipSync(
        pages(STUDIES, 50)
          .map((p) => JSON.stringify(p))
          .join('\n'),
      ),
    );
    for (const file of [onLines, asJsonl]) {
      const reads = await readAll(file);
      assert.deepEqual(refusals(reads), []);
      assert.deepEqual(records(reads), expected, file);
    }
    const page = write('page.json', JSON.stringify(pages(STUDIES.slice(0, 7), 7)[0], null, 2));
    const reads = await readAll(page);
    assert.deepEqual(records(reads), expected.slice(0, 7));
    assert.deepEqual(reads[3]!.place, { name: page, line: 1, index: 3 });
    const second = (await readAll(onLines))[150]!;
    assert.deepEqual(second.place, { name: onLines, line: 2, index: 50 });
  });

  test('the website’s JSON download: an array of studies, pretty-printed or on one line', async () => {
    const pretty = write('ctg-studies.json', JSON.stringify(STUDIES, null, 2));
    const compact = write('ctg-studies-compact.json', JSON.stringify(STUDIES.slice(0, 12)));
    const reads = await readAll(pretty);
    assert.deepEqual(records(reads), expected);
    assert.deepEqual(records(await readAll(compact)), expected.slice(0, 12));
    // An element is placed at the line it starts on.
    assert.equal(reads[1]!.place.line, JSON.stringify([STUDIES[0]], null, 2).split('\n').length);
  });

  test('one study alone, pretty-printed (a study file of the bulk download unzipped)', async () => {
    const one = write('NCT06576635.json', JSON.stringify(STUDIES[0], null, 2));
    const reads = await readAll(one);
    assert.deepEqual(reads, [{ place: { name: one, line: 1 }, record: expected[0] }]);
  });
});

describe('what cannot be used is refused where it is; the rest is read', () => {
  const first = STUDIES[0]!;
  const withId = (id: unknown): Study => ({
    ...first,
    protocolSection: {
      ...first['protocolSection'],
      identificationModule: { ...first['protocolSection'].identificationModule, nctId: id },
    },
  });
  const untitled: Study = {
    ...first,
    protocolSection: { ...first['protocolSection'], identificationModule: { nctId: 'NCT00000001' } },
  };

  test('ctgovToTrial throws MalformedRecord for no study, a bad or missing NCT number, no title', () => {
    for (const [value, message] of [
      [null, /not a JSON object/],
      [[first], /not a JSON object/],
      [{ studies: [] }, /without protocolSection.identificationModule.nctId/],
      [withId(undefined), /without protocolSection/],
      [withId('NCT123'), /"NCT123" is not an NCT number/],
      [withId('EUCTR2014-005098-35'), /is not an NCT number/],
      [untitled, /study NCT00000001 has no title/],
    ] as const)
      assert.throws(
        () => ctgovToTrial(value),
        (e: unknown) => e instanceof MalformedRecord && message.test(e.message),
      );
  });

  test('studiesOf refuses a document that is no study, page or list', () => {
    assert.throws(() => studiesOf({ nextPageToken: 'x' }), MalformedRecord);
    assert.throws(() => studiesOf('NCT06576635'), MalformedRecord);
    assert.deepEqual(studiesOf({ studies: [first] }), [first]);
    assert.ok(isCtgovStudy(first) && !isCtgovStudy({ studies: [first] }));
  });

  test('JSON Lines: a bad line and a bad study are reported at their lines, the others imported', async () => {
    const file = write(
      'mixed.jsonl',
      [LINES[0], '{"protocolSection": {', JSON.stringify(withId('NCT1')), LINES[1], '[1, 2]'].join('\n') + '\n',
    );
    const reads = await readAll(file);
    assert.deepEqual(
      records(reads).map((r) => r.id),
      [nctOf(STUDIES[0]!), nctOf(STUDIES[1]!)],
    );
    assert.deepEqual(
      refusals(reads).map((r) => [r.place, r.malformed.replace(/\(.*\)/, '(...)')]),
      [
        [{ name: file, line: 2 }, 'not valid JSON (...)'],
        [{ name: file, line: 3 }, 'study "NCT1" is not an NCT number'],
        [{ name: file, line: 5, index: 0 }, 'a study is not a JSON object'],
        [{ name: file, line: 5, index: 1 }, 'a study is not a JSON object'],
      ],
    );
  });

  test('a page with a bad study refuses that study alone, by its index', async () => {
    const file = write('bad-page.json', JSON.stringify({ studies: [first, untitled, STUDIES[1]] }));
    const reads = await readAll(file);
    assert.equal(records(reads).length, 2);
    assert.deepEqual(refusals(reads), [
      { place: { name: file, line: 1, index: 1 }, malformed: 'study NCT00000001 has no title' },
    ]);
  });

  test('a zip entry that is not JSON is refused, its neighbours read', async () => {
    const zip = bulkZip(STUDIES.slice(0, 3), { '00/NCT00000000.json': strToU8('{"protocolSection": ') });
    const reads = await readAll(zip);
    assert.equal(records(reads).length, 3);
    assert.deepEqual(
      refusals(reads).map((r) => r.place),
      [{ name: `${zip}!00/NCT00000000.json`, line: 1 }],
    );
  });

  test('a zip with no JSON entry, or no zip at all, fails with the import’s codes', async () => {
    const empty = write('nothing.zip', zipSync({ 'readme.txt': strToU8('hello') }));
    await assert.rejects(
      readAll(empty),
      (e: unknown) => e instanceof QuarryError && e.code === 'DATA_ZIP_NOTHING_READABLE',
    );
    const broken = write('broken.zip', readFileSync(bulkZip(STUDIES.slice(0, 2))).subarray(0, 500));
    await assert.rejects(readAll(broken), (e: unknown) => e instanceof QuarryError && e.code === 'DATA_ZIP_UNREADABLE');
  });

  test('a study past the line limit is refused with DATA_LINE_TOO_LONG, in a zip and in a pretty-printed file', async () => {
    const limits = { ...DEFAULT_IMPORT_LIMITS, maxLineBytes: 4096 };
    const zip = bulkZip(STUDIES.slice(0, 2));
    await assert.rejects(
      readAll(zip, limits),
      (e: unknown) => e instanceof InputRefused && e.code === 'DATA_LINE_TOO_LONG',
    );
    const one = write('big.json', JSON.stringify(first, null, 2));
    await assert.rejects(
      readAll(one, limits),
      (e: unknown) => e instanceof InputRefused && e.code === 'DATA_LINE_TOO_LONG',
    );
  });
});

describe('value helpers', () => {
  test('registry dates as YYYY-MM-DD; other text is no date', () => {
    assert.equal(registryDate('2024-12-16'), '2024-12-16');
    assert.equal(registryDate('2026-09'), '2026-09-01');
    assert.equal(registryDate('2026'), '2026-01-01');
    for (const bad of ['2026-13', 'September 2026', '', 7, undefined]) assert.equal(registryDate(bad), undefined);
  });

  test('a DOI in a citation, without its closing full stop', () => {
    assert.equal(
      citationDoi('Obstet Gynecol. 2022 Apr 1;139(4):606-615. doi: 10.1097/AOG.0000000000004725. Epub 2022 Mar 10.'),
      '10.1097/aog.0000000000004725',
    );
    assert.equal(
      citationDoi('BMC Cancer. 2021;21(1):743. doi: 10.1186/s12885-021-08460-w.'),
      '10.1186/s12885-021-08460-w',
    );
    assert.equal(citationDoi('Processes 2021; 9: 2199.'), undefined);
  });
});
