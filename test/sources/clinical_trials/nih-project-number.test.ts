// NIH project numbers as ClinicalTrials.gov lists them, normalised to the key Quarry gives
// NIH grants (`nih.<full project number>`, as data/import/formats/nih.ts writes it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nihGrantId, nihProjectNumber } from '../../../src/sources/clinical_trials/nih-project-number.ts';

test('full project numbers: type, activity, institute, serial, support year, suffix', () => {
  assert.deepEqual(nihProjectNumber('1R44AT011593-01'), { core: 'R44AT011593', full: '1R44AT011593-01' });
  assert.deepEqual(nihProjectNumber('3R01AI130470-05S1'), { core: 'R01AI130470', full: '3R01AI130470-05S1' });
  // Spaces, hyphens between parts and lower case, as registries write them; short serials padded.
  assert.deepEqual(nihProjectNumber(' 5 r01 ca-12345-05 '), { core: 'R01CA012345', full: '5R01CA012345-05' });
  assert.equal(nihGrantId('7R01CA285331-02'), 'nih.7R01CA285331-02');
});

test('a core number, or one without its support year, names no single grant', () => {
  assert.deepEqual(nihProjectNumber('R44MH136888'), { core: 'R44MH136888' });
  assert.deepEqual(nihProjectNumber('2R44DA047150'), { core: 'R44DA047150' });
  assert.deepEqual(nihProjectNumber('UG3DA057032'), { core: 'UG3DA057032' });
  assert.deepEqual(nihProjectNumber('R01-CA-123456'), { core: 'R01CA123456' });
  assert.deepEqual(nihProjectNumber('R01CA123456-01'), { core: 'R01CA123456' });
  for (const core of ['R44MH136888', '2R44DA047150', 'P30AG048785']) assert.equal(nihGrantId(core), undefined);
});

test('text that is no NIH project number', () => {
  for (const text of ['NCI-2011-01234', '2014-005098-35', 'STUDY00016340', 'HHSN261201500003I', '', 'R01'])
    assert.equal(nihProjectNumber(text), undefined, text);
});
