// classify(title="…", abstract="…", system="FOR"): checked arguments (positioned failures), the
// hosted answer shape ({"FOR": [{"id", "name", ...}]}), and that a text of a clear field lands
// in its category. (Quality on real text is measured by bench/classify.ts: the 40 real works
// of the fixtures are too few to train on.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse, type FunctionCall } from '../../src/dsl/index.ts';
import { CLASSIFICATION_SYSTEMS, classifyFunction as fn } from '../../src/functions/classify.ts';
import { writtenPublications } from './analytics-fixtures.ts';
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

interface Scored {
  id: string;
  name: string;
  score: number;
}

async function answer(query: string, records = writtenPublications()) {
  const context = fixtureContext({ publications: records });
  return { result: await fn.run(fn.check(callOf(query), failWith), context), context };
}

describe('classify: arguments', () => {
  test('title, abstract and system by name', () => {
    assert.deepEqual(
      fn.check(callOf('classify(title="Deep learning", abstract="Neural networks.", system="FOR")'), failWith),
      {
        title: 'Deep learning',
        abstract: 'Neural networks.',
        system: 'FOR',
      },
    );
  });

  test('by position, and the system in any case', () => {
    assert.deepEqual(fn.check(callOf('classify("Deep learning", "", "for")'), failWith), {
      title: 'Deep learning',
      abstract: '',
      system: 'FOR',
    });
  });

  test('an abstract alone is enough', () => {
    assert.equal(fn.check(callOf('classify(abstract="Rainfall and soil erosion.", system="UOA")'), failWith).title, '');
  });

  test('an unknown system is refused at its value, listing the systems', () => {
    const q = 'classify(title="Deep learning", system="ACM")';
    const e = failure(q);
    assert.match(e.message, /Unknown classification system 'ACM'/);
    for (const system of Object.keys(CLASSIFICATION_SYSTEMS)) assert.ok(e.message.includes(system), system);
    assert.equal(q.slice(e.span.start, e.span.end), '"ACM"');
  });

  test('no title and no abstract is refused at the call', () => {
    const q = 'classify(title="", abstract="  ", system="FOR")';
    const e = failure(q);
    assert.match(e.message, /needs a title or an abstract/);
    assert.deepEqual(e.span, { start: 0, end: q.length });
    assert.match(failure('classify(system="FOR")').message, /needs a title or an abstract/);
  });

  test('no system is refused, naming the systems', () => {
    const e = failure('classify(title="Deep learning")');
    assert.match(e.message, /needs the argument 'system'.*FOR, RCDC/);
  });

  test('an unknown argument is refused at its name', () => {
    const q = 'classify(title="Deep learning", system="FOR", language="en")';
    const e = failure(q);
    assert.match(e.message, /no argument 'language'. Its arguments are: title, abstract, system/);
    assert.equal(q.slice(e.span.start, e.span.end), 'language');
  });

  test('a list for the title is refused at the list', () => {
    const q = 'classify(title=["a", "b"], system="FOR")';
    const e = failure(q);
    assert.match(e.message, /'title' must be a string, not a list/);
    assert.equal(q.slice(e.span.start, e.span.end), '["a", "b"]');
  });
});

describe('classify: answers', () => {
  test('a text of a clear field gets its division first, then a group of it; scores in [0, 1], best first', async () => {
    const { result } = await answer(
      'classify(title="Chemotherapy and tumour growth", abstract="Metastasis of breast cancer under chemotherapy.", system="FOR")',
    );
    assert.deepEqual(Object.keys(result), ['FOR']);
    const list = result['FOR'] as Scored[];
    assert.ok(list.length >= 1);
    assert.deepEqual(list[0], { ...list[0], id: '32', name: '32 Biomedical and Clinical Sciences' });
    assert.ok(
      list.some((c) => c.id === '3211'),
      JSON.stringify(list),
    );
    for (const c of list) {
      assert.deepEqual(Object.keys(c), ['id', 'name', 'score']);
      assert.ok(c.score >= 0 && c.score <= 1);
    }
    for (let k = 1; k < list.length; k++) assert.ok((list[k - 1]?.score ?? 0) >= (list[k]?.score ?? 0));
  });

  test('each field of the written records is told apart', async () => {
    const cases: [string, string][] = [
      ['Gradient descent for training neural networks', '46'],
      ['Fault tolerance of message passing on computing clusters', '46'],
      ['Glacier retreat and groundwater recharge in river basins', '37'],
      ['Blood pressure of hospital patients in intensive care', '32'],
    ];
    const records = writtenPublications();
    for (const [title, division] of cases) {
      const { result } = await answer(`classify(title="${title}", system="FOR")`, records);
      assert.equal((result['FOR'] as Scored[])[0]?.id, division, title);
    }
  });

  test('the classifier is trained once per system and data epoch, from the publications', async () => {
    const context = fixtureContext({ publications: writtenPublications() });
    const args = fn.check(callOf('classify(title="Soil erosion", system="FOR")'), failWith);
    await fn.run(args, context);
    await fn.run(args, context);
    assert.equal(context.builds.get('classify:FOR'), 1);
    assert.deepEqual(context.reads, [{ source: 'publications', fields: ['title', 'abstract', 'category_for'] }]);
    assert.deepEqual(fn.reads, ['publications']);
  });

  test('a system no held record carries answers an empty list', async () => {
    const { result } = await answer('classify(title="Soil erosion", system="SDG")');
    assert.deepEqual(result, { SDG: [] });
  });

  test('a text of words no record uses answers an empty list', async () => {
    const { result } = await answer('classify(title="Zyxwv qwerty", system="FOR")');
    assert.deepEqual(result, { FOR: [] });
  });
});
