import assert from 'node:assert/strict';
import { parse } from '../../src/dsl/index.ts';
import { isQuarryError, type QuarryError } from '../../src/errors/index.ts';
import {
  validate,
  type DslVersion,
  type SchemaPermissions,
  type ValidationResult,
  type ValidatedSearch,
} from '../../src/schema/index.ts';

/** Parses and validates; the query must pass. */
export function valid(text: string, dslVersion: DslVersion = 2, permissions?: SchemaPermissions): ValidationResult {
  return validate(parse(text), { dslVersion, source: text, ...(permissions ? { permissions } : {}) });
}

/** The validated search of a query that must pass. */
export function search(text: string, dslVersion: DslVersion = 2): ValidatedSearch {
  const { query } = valid(text, dslVersion);
  assert.equal(query.kind, 'search');
  if (query.kind !== 'search') throw new Error('not a search');
  return query;
}

/** Parses and validates; the query must be rejected by validation (not by the parser). */
export function rejected(
  text: string,
  dslVersion: DslVersion = 2,
  permissions?: SchemaPermissions,
  maxProblems?: number,
): QuarryError {
  const ast = parse(text);
  try {
    validate(ast, {
      dslVersion,
      source: text,
      ...(permissions ? { permissions } : {}),
      ...(maxProblems ? { maxProblems } : {}),
    });
  } catch (error) {
    if (isQuarryError(error)) return error;
    throw error;
  }
  assert.fail(`expected ${text} to be rejected`);
}
