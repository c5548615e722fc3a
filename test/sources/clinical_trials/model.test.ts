// The clinical_trials declaration's row hooks on real trials (studies of the sample mapped by
// the importer, one given a matched sponsor and affiliation): which link rows, values rows
// and full-text texts a trial becomes, and its values codes beside the other sources'.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NAME_GAP, type LooseRecord } from '../../../src/model/record-values.ts';
import { DECLARED_SOURCES } from '../../../src/model/sources.ts';
import { VALUE_FIELD_CODES } from '../../../src/model/storage.ts';
import type { ClinicalTrialRecord } from '../../../src/sources/clinical_trials/native.ts';
import { clinicalTrials } from '../../../src/sources/clinical_trials/model.ts';
import { sampleTrials } from './fixture.ts';

const trials = await sampleTrials();
const trial = (id: string): ClinicalTrialRecord => {
  const found = trials.find((t) => t.id === id);
  assert.ok(found, id);
  return found;
};
/** A trial as the row hooks read it: any JSON object. */
const loose = (t: ClinicalTrialRecord): LooseRecord => Object.fromEntries(Object.entries(t));
const links = (t: ClinicalTrialRecord): ReturnType<typeof clinicalTrials.rows.links> =>
  clinicalTrials.rows.links(loose(t));
const columns = clinicalTrials.storage.fullText?.columns ?? [];
const textOf = (record: ClinicalTrialRecord, column: string): string | undefined =>
  clinicalTrials.rows.fullText?.(loose(record))[columns.indexOf(column)];

describe('clinical_trials row hooks', () => {
  test('organizations come from the record, the matched sponsors and the matched affiliations', () => {
    // NCT02466334: its lead sponsor matched (fixture.ts), no organization in research_orgs.
    const sponsored = trial('NCT02466334');
    assert.deepEqual(sponsored.research_orgs, []);
    assert.deepEqual(links(sponsored).clinical_trial_research_orgs, [['grid.9001.a']]);
    // NCT06000007: its investigator's affiliation matched.
    assert.deepEqual(links(trial('NCT06000007')).clinical_trial_research_orgs, [['grid.9002.b']]);
    // An unmatched trial names organizations by name only: no rows.
    assert.deepEqual(links(trial('NCT06576635')).clinical_trial_research_orgs, []);
  });

  test('researchers are the identified investigators and the record’s own, once each', () => {
    assert.deepEqual(links(trial('NCT02466334')).clinical_trial_researchers, [
      ['ur.0100000004.04'],
      ['ur.0100000003.03'],
    ]);
  });

  test('publications are the held ones: by id and the ids of the links, never a link without one', () => {
    const t = trial('NCT03814226');
    assert.ok((t.publications ?? []).length > 1);
    assert.deepEqual(links(t).clinical_trial_publications, [['pub.9202']]);
  });

  test('values rows carry each field’s stored code, its values once', () => {
    const t = trial('NCT06950281');
    const rows = links(t).clinical_trial_values;
    const of = (code: string): unknown[] => rows.filter(([c]) => c === code).map(([, v]) => v);
    assert.deepEqual(of('60'), t.active_years);
    assert.deepEqual(of('61'), t.conditions);
    assert.deepEqual(of('2'), t.mesh_terms);
    assert.deepEqual(of('62'), t.study_arms);
    assert.deepEqual(of('63'), t.study_designs);
    assert.equal(
      rows.length,
      [60, 61, 2, 62, 63].reduce((n, code) => n + of(String(code)).length, 0),
    );
  });

  test('full text: titles with the brief title and acronym; names apart; affiliations as written', () => {
    const t = trial('NCT06576635');
    assert.equal(textOf(t, 'title'), [t.title, t.brief_title, t.acronym].join(' ; '));
    assert.equal(textOf(t, 'criteria'), t.study_eligibility_criteria);
    const ashina = trial('NCT02466334');
    assert.equal(textOf(ashina, 'investigators'), `Messoud Ashina${NAME_GAP}Song Guo`);
    // The sponsor and both investigators' affiliation: one name, once.
    assert.equal(textOf(ashina, 'affiliations'), 'Danish Headache Center');
    const interventions = textOf(trial('NCT06950281'), 'interventions') ?? '';
    for (const word of ['Low Sodium Oxybate', 'XYWAV', 'JZP-258', 'twice nightly'])
      assert.ok(interventions.includes(word));
  });
});

describe('clinical_trials values codes', () => {
  const codes = clinicalTrials.storage.valueFieldCodes ?? {};
  test('new fields take codes of the block 60–79; a field another source holds keeps its code', () => {
    for (const [field, code] of Object.entries(codes)) {
      const elsewhere = DECLARED_SOURCES.filter((s) => s !== clinicalTrials).find(
        (s) => s.storage.valueFieldCodes?.[field] !== undefined,
      );
      if (elsewhere !== undefined) assert.equal(code, elsewhere.storage.valueFieldCodes?.[field], field);
      else assert.ok(Number(code) >= 60 && Number(code) <= 79, `${field}: ${code}`);
      assert.equal(VALUE_FIELD_CODES[field], code);
    }
    assert.equal(codes['mesh_terms'], '2');
  });
});
