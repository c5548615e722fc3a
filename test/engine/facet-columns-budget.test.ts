import assert from 'node:assert/strict';
import { totalmem } from 'node:os';
import { describe, test } from 'node:test';
import {
  defaultFacetColumnsMb,
  MAX_DEFAULT_FACET_COLUMNS_MB,
  MIN_DEFAULT_FACET_COLUMNS_MB,
} from '../../src/facet-columns-budget.ts';
import { DEFAULT_FACET_COLUMNS_MB } from '../../src/engine/backends/sqlite/engine.ts';

const GiB = 2 ** 30;

describe('the default budget of the in-memory facet columns', () => {
  test('is an eighth of the machine memory', () => {
    assert.equal(defaultFacetColumnsMb(24 * GiB), 3072);
    assert.equal(defaultFacetColumnsMb(8 * GiB), 1024);
  });

  test('is never below 256 MiB, so a small machine keeps the columns of a 1M corpus', () => {
    assert.equal(defaultFacetColumnsMb(1 * GiB), MIN_DEFAULT_FACET_COLUMNS_MB);
    assert.equal(defaultFacetColumnsMb(2 * GiB), 256);
  });

  test('is never above 4 GiB, however large the machine', () => {
    assert.equal(defaultFacetColumnsMb(256 * GiB), MAX_DEFAULT_FACET_COLUMNS_MB);
    assert.equal(MAX_DEFAULT_FACET_COLUMNS_MB, 4096);
  });

  test("is the engine's default on this machine", () => {
    assert.equal(DEFAULT_FACET_COLUMNS_MB, defaultFacetColumnsMb(totalmem()));
  });
});
