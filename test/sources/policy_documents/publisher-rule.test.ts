// The rule filing a report as a policy document (src/sources/policy_documents/
// publisher-rule.ts): its publisher is typed government, or is a listed intergovernmental
// organization; an unknown publisher, or one whose type the work does not give, is not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { INTERGOVERNMENTAL_ORGANIZATIONS } from '../../../src/sources/policy_documents/intergovernmental.ts';
import { isPolicyPublisher } from '../../../src/sources/policy_documents/publisher-rule.ts';

test('a publisher typed government, in any case, is a policy publisher', () => {
  assert.equal(isPolicyPublisher({ types: ['government'] }), true);
  assert.equal(isPolicyPublisher({ name: 'World Health Organization', types: ['funder', 'Government'] }), true);
  assert.equal(isPolicyPublisher({ types: ['education', 'funder'] }), false);
});

test('a listed intergovernmental organization is one whatever its types', () => {
  assert.equal(isPolicyPublisher({ id: 'https://ror.org/02gjn4306' }), true);
  assert.equal(isPolicyPublisher({ id: 'https://ror.org/02gjn4306', types: ['other'] }), true);
});

test('an unknown publisher, or one named without type, is not', () => {
  assert.equal(isPolicyPublisher(undefined), false);
  assert.equal(isPolicyPublisher({ name: 'US Geological Survey' }), false);
  // ROR types the WHO government, but a work that gives only its id says nothing of that.
  assert.equal(isPolicyPublisher({ id: 'https://ror.org/01f80g185' }), false);
});

test('the listed organizations are in ROR without the government type, as the list says', () => {
  // The ROR records of the repository's sample that are listed (the others are not in the sample).
  const sample = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../fixtures/data/ror/ror_v2_sample.json', import.meta.url)), 'utf8'),
  ) as { id: string; types: string[] }[];
  const listed = sample.filter((r) => INTERGOVERNMENTAL_ORGANIZATIONS.has(r.id));
  assert.deepEqual(
    listed.map((r) => r.id),
    ['https://ror.org/02gjn4306'],
  );
  for (const r of listed) {
    assert.ok(!r.types.includes('government'), r.id);
    assert.match(INTERGOVERNMENTAL_ORGANIZATIONS.get(r.id) ?? '', new RegExp(`ROR: ${r.types.join(', ')}`));
  }
});
