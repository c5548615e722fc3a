// The text analytics below extract_concepts and classify: words and their keys, the candidate
// phrases of a text, and the classifier's levels.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SystemTrainer } from '../../src/analytics/classify/hierarchy.ts';
import { candidates } from '../../src/analytics/concepts/phrases.ts';
import { VocabularyBuilder } from '../../src/analytics/concepts/vocabulary.ts';
import { keyOfText, singular, tokens, words } from '../../src/analytics/text/words.ts';

describe('words', () => {
  test('clause breaks are kept, hyphens and apostrophes stay inside words', () => {
    const ws = words('Room-temperature mobility, of CO2; (Smith’s data).');
    assert.deepEqual(
      ws.map((w) => [w.text, w.breakBefore]),
      [
        ['Room-temperature', false],
        ['mobility', false],
        ['of', true],
        ['CO2', false],
        ['Smith’s', true],
        ['data', false],
      ],
    );
  });

  test('a light singular', () => {
    assert.deepEqual(['films', 'studies', 'analysis', 'glass', 'bus', 'gas', 'series', 'effects'].map(singular), [
      'film',
      'study',
      'analysis',
      'glass',
      'bus',
      'gas',
      'series',
      'effect',
    ]);
  });

  test('the key of a phrase: lower case, last word singular', () => {
    assert.equal(keyOfText('Electric  Field Effects'), 'electric field effect');
    assert.equal(keyOfText('electric field effect'), keyOfText('Electric field effects'));
  });

  test("the classifier's tokens leave out stop words and numbers", () => {
    assert.deepEqual(tokens('We show that 42 graphene films are stable.'), ['graphene', 'film', 'stable']);
  });
});

describe('candidate phrases', () => {
  const vocabulary = (() => {
    const b = new VocabularyBuilder();
    b.add({ concepts: ['child and adolescent development', 'Tourism'], text: 'tourism and children' });
    b.add({ concepts: ['tourism'], text: 'alternative tourism' });
    b.add({ concepts: ['tourism', 'alternative tourism'], text: 'tourism again' });
    return b.build();
  })();

  test('held concepts match with stop words inside, in the form most records write them', () => {
    const found = candidates(words('Child and adolescent development of tourism.'), vocabulary);
    assert.equal(found.get('child and adolescent development')?.held, true);
    assert.equal(found.get('tourism')?.held, true);
    assert.equal(vocabulary.concept('TOURISM')?.label, 'tourism');
    assert.equal(vocabulary.concept('tourism')?.records, 3);
  });

  test('free phrases stop at stop words and breaks, and skip adjective and participle edges', () => {
    const found = candidates(words('A strong ambipolar electric field effect, applying gate voltage.'), vocabulary);
    const keys = [...found.keys()];
    assert.ok(keys.includes('ambipolar electric field effect'), keys.join(' | '));
    assert.ok(keys.includes('gate voltage'));
    assert.ok(!keys.some((k) => k.startsWith('strong')), 'a vague word does not start a concept');
    assert.ok(!keys.includes('ambipolar electric'), 'an adjective does not end a concept');
    assert.ok(!keys.some((k) => k.startsWith('applying')), 'a participle does not start a concept');
    assert.ok(!keys.some((k) => k.includes('effect applying')), 'a phrase never runs across a comma');
  });
});

describe('classifier levels', () => {
  test('a division and its groups: the division first, then its group', () => {
    const t = new SystemTrainer();
    const ml = [
      { id: '46', name: '46 Information and Computing Sciences' },
      { id: '4611', name: '4611 Machine learning' },
    ];
    const geo = [
      { id: '37', name: '37 Earth Sciences' },
      { id: '3705', name: '3705 Geology' },
    ];
    for (let k = 0; k < 5; k++) {
      t.offer(`neural network training with gradient descent ${k}`, ml);
      t.offer(`sedimentary rock layers and tectonic faults ${k}`, geo);
    }
    const got = t.train().classify('gradient descent for a neural network');
    assert.deepEqual(
      got.map((c) => c.id),
      ['46', '4611'],
    );
    assert.ok((got[0]?.score ?? 0) >= (got[1]?.score ?? 0));
  });

  test('categories without codes are one level', () => {
    const t = new SystemTrainer();
    for (let k = 0; k < 3; k++) {
      t.offer('tumour growth under chemotherapy', [{ id: '911', name: 'Cancer' }]);
      t.offer('heart failure and blood pressure', [{ id: '894', name: 'Cardiovascular' }]);
    }
    assert.equal(t.train().classify('chemotherapy of a tumour')[0]?.name, 'Cancer');
  });
});
