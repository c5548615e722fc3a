// extract_concepts("text", return_scores=true): checked arguments (positioned failures), the
// hosted answer shape ({"extracted_concepts": [...]}), and that what a text is about comes
// first - on written records and on real OpenAlex abstracts (vocabulary built without the
// record whose concepts are compared).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractConcepts } from '../../src/analytics/concepts/score.ts';
import { VocabularyBuilder } from '../../src/analytics/concepts/vocabulary.ts';
import { keyOfText } from '../../src/analytics/text/words.ts';
import { parse, type FunctionCall } from '../../src/dsl/index.ts';
import { extractConceptsFunction as fn } from '../../src/functions/extract-concepts.ts';
import { openAlexWorks, writtenPublications } from './analytics-fixtures.ts';
import { ArgumentError, failWith, fixtureContext } from './fixture-context.ts';

function callOf(query: string): FunctionCall {
  const q = parse(query);
  assert.equal(q.kind, 'FunctionCallQuery');
  return q.call;
}

function failure(query: string): ArgumentError {
  try {
    fn.check(callOf(query), failWith);
  } catch (e) {
    if (e instanceof ArgumentError) return e;
    throw e;
  }
  assert.fail(`expected ${query} to be refused`);
}

async function answer(query: string, records = writtenPublications()) {
  const context = fixtureContext({ publications: records });
  return { result: await fn.run(fn.check(callOf(query), failWith), context), context };
}

const GRAPHENE =
  'We describe monocrystalline graphitic films, which are a few atoms thick but are nonetheless stable under ' +
  'ambient conditions, metallic, and of remarkably high quality. The films are found to be a two-dimensional ' +
  'semimetal with a tiny overlap between valence and conductance bands, and they exhibit a strong ambipolar ' +
  'electric field effect such that electrons and holes in concentrations up to 10^13 per square centimeter and ' +
  'with room-temperature mobilities of about 10,000 square centimeters per volt-second can be induced by ' +
  'applying gate voltage.';

describe('extract_concepts: arguments', () => {
  test('the text by position, return_scores by name', () => {
    assert.deepEqual(fn.check(callOf('extract_concepts("graphene films", return_scores=true)'), failWith), {
      text: 'graphene films',
      returnScores: true,
    });
  });

  test('return_scores is false unless given', () => {
    assert.equal(fn.check(callOf('extract_concepts(text="graphene films")'), failWith).returnScores, false);
  });

  test('an empty text is refused at the text', () => {
    const q = 'extract_concepts("  ", return_scores=true)';
    const e = failure(q);
    assert.match(e.message, /not empty/);
    assert.equal(q.slice(e.span.start, e.span.end), '"  "');
  });

  test('no text is refused at the call', () => {
    const e = failure('extract_concepts(return_scores=true)');
    assert.match(e.message, /needs the argument 'text'/);
    assert.deepEqual(e.span, { start: 0, end: 36 });
  });

  test('return_scores must be a boolean', () => {
    const q = 'extract_concepts("graphene", return_scores="yes")';
    const e = failure(q);
    assert.match(e.message, /'return_scores' must be true or false, not a string/);
    assert.equal(q.slice(e.span.start, e.span.end), '"yes"');
  });

  test('an unknown argument is refused at its name, listing the arguments', () => {
    const q = 'extract_concepts("graphene", max_concepts=5)';
    const e = failure(q);
    assert.match(e.message, /no argument 'max_concepts'.*text, return_scores/);
    assert.equal(q.slice(e.span.start, e.span.end), 'max_concepts');
  });

  test('a number for the text is refused', () => {
    assert.match(failure('extract_concepts(42)').message, /'text' must be a string, not a number/);
  });

  test('an argument given twice is refused', () => {
    assert.match(failure('extract_concepts("a b", text="c d")').message, /given twice/);
  });
});

describe('extract_concepts: answers', () => {
  test('without scores: {"extracted_concepts": [strings]}', async () => {
    const { result } = await answer('extract_concepts("Chemotherapy slows tumour growth in breast cancer.")');
    assert.deepEqual(Object.keys(result), ['extracted_concepts']);
    const list = result['extracted_concepts'] as unknown[];
    assert.ok(list.length > 0);
    for (const c of list) assert.equal(typeof c, 'string');
  });

  test('with scores: concepts with relevance in [0, 1], most relevant first', async () => {
    const { result } = await answer(`extract_concepts("${GRAPHENE}", return_scores=true)`);
    const list = result['extracted_concepts'] as { concept: string; relevance: number }[];
    assert.ok(list.length >= 10);
    for (const c of list) {
      assert.deepEqual(Object.keys(c), ['concept', 'relevance']);
      assert.ok(c.relevance >= 0 && c.relevance <= 1, `${c.concept}: ${c.relevance}`);
    }
    for (let k = 1; k < list.length; k++) assert.ok((list[k - 1]?.relevance ?? 0) >= (list[k]?.relevance ?? 0));
    // Phrases of the text itself, though no record holds them as concepts.
    const concepts = list.map((c) => c.concept);
    assert.ok(concepts.includes('monocrystalline graphitic films'), concepts.join(', '));
    assert.ok(concepts.includes('ambipolar electric field effect'), concepts.join(', '));
    assert.ok(!concepts.some((c) => /^(we|the|which|are)\b/.test(c)), 'no phrase starts with a stop word');
  });

  test('the concepts a text is about come first, in the form the records hold them', async () => {
    const { result } = await answer(
      'extract_concepts("Chemotherapy and tumour growth: a randomised controlled trial of breast cancer ' +
        'patients. We followed the overall survival of women treated with chemotherapy.", return_scores=true)',
    );
    const top = (result['extracted_concepts'] as { concept: string }[]).slice(0, 5).map((c) => c.concept);
    assert.ok(top.includes('chemotherapy'), top.join(', '));
    assert.ok(top.includes('breast cancer'), top.join(', '));
    assert.ok(top.includes('randomised controlled trial'), top.join(', '));
  });

  test('the vocabulary is built once per data epoch, from the publications', async () => {
    const context = fixtureContext({ publications: writtenPublications() });
    const args = fn.check(callOf('extract_concepts("deep learning on computing clusters")'), failWith);
    await fn.run(args, context);
    await fn.run(args, context);
    assert.equal(context.builds.get('extract_concepts:vocabulary'), 1);
    assert.deepEqual(context.reads, [{ source: 'publications', fields: ['title', 'abstract', 'concepts'] }]);
    assert.deepEqual(fn.reads, ['publications']);
  });

  test('with no records held it still answers from the text', async () => {
    const { result } = await answer(`extract_concepts("${GRAPHENE}")`, []);
    assert.ok((result['extracted_concepts'] as string[]).includes('graphitic films'));
  });
});

describe('extract_concepts on real abstracts (OpenAlex works, each left out of the vocabulary)', () => {
  test("most works have one of their own concepts among the first ten, and the answer's scores are sorted", () => {
    const works = openAlexWorks();
    let found = 0;
    for (const work of works) {
      const builder = new VocabularyBuilder();
      for (const other of works)
        if (other !== work) builder.add({ concepts: other.concepts, text: `${other.title} ${other.abstract}` });
      const got = extractConcepts(`${work.title}. ${work.abstract}`, builder.build());
      for (let k = 1; k < got.length; k++) assert.ok((got[k - 1]?.relevance ?? 0) >= (got[k]?.relevance ?? 0));
      const own = new Set(work.concepts.map(keyOfText));
      if (got.slice(0, 10).some((c) => own.has(keyOfText(c.concept)))) found++;
    }
    assert.ok(found >= works.length * 0.5, `${found} of ${works.length}`);
  });
});
