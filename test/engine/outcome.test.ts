// A query outcome holds a result as data and as JSON text and makes the missing form only
// when asked, once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { outcomeFromJson, outcomeFromResult } from '../../src/engine/outcome.ts';

const timings = { parseMs: 1, executeMs: 2 };

describe('query outcomes', () => {
  test('from JSON text: the text is kept as it came and parsed into the same object on every use', () => {
    const json = '{"year":[{"id":2020,"count":3}],"_stats":{"total_count":3}}';
    const outcome = outcomeFromJson(json, timings);
    assert.equal(outcome.json, json);
    assert.deepEqual(outcome.result, { year: [{ id: 2020, count: 3 }], _stats: { total_count: 3 } });
    assert.equal(outcome.result, outcome.result);
    assert.equal(outcome.timings, timings);
  });

  test('from data: the JSON text is the result stringified, made once', () => {
    const result = { publications: [{ id: 'pub.1', title: 'Ünïcode "quoted"' }], _stats: { total_count: 1 } };
    const outcome = outcomeFromResult(result, timings);
    assert.equal(outcome.result, result);
    assert.equal(outcome.json, JSON.stringify(result));
    assert.equal(outcome.json, outcome.json);
  });

  test('JSON text that is not JSON fails loudly when the result is read', () => {
    assert.throws(() => outcomeFromJson('{"year":', timings).result, SyntaxError);
  });
});
