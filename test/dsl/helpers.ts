import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { QuarryError, ERROR_CODES, type Problem } from '../../src/errors/index.ts';
import type { FilterNode, FullTextNode, Query, SearchQuery } from '../../src/dsl/ast.ts';
import { parse } from '../../src/dsl/parse.ts';

export const CONFORMANCE_PATH = fileURLToPath(new URL('../../conformance/queries.txt', import.meta.url));

export function conformanceText(): string {
  return readFileSync(CONFORMANCE_PATH, 'utf8');
}

/** Parses a query that must be a search and returns it. */
export function parseSearch(text: string): SearchQuery {
  const query = parse(text);
  assert.equal(query.kind, 'SearchQuery');
  if (query.kind !== 'SearchQuery') throw new Error('not a search');
  return query;
}

/** The filter of `search x where <filter> return x`. */
export function parseFilterOf(filter: string): FilterNode {
  const query = parseSearch(`search publications where ${filter} return publications`);
  assert.ok(query.filter);
  return query.filter;
}

/** The full-text tree of `search x for "<text>" return x`; `text` is written as it appears between the quotes. */
export function parseTextOf(text: string): FullTextNode {
  const query = parseSearch(`search publications for "${text}" return publications`);
  assert.ok(query.fullText);
  return query.fullText.ast;
}

/** A fully parenthesised rendering of a filter, to assert structure and precedence. */
export function filterShape(node: FilterNode): string {
  switch (node.kind) {
    case 'Comparison':
      return `${node.field.path}${node.op}${node.value.kind === 'String' ? JSON.stringify(node.value.value) : node.value.raw}`;
    case 'InList':
      return `${node.field.path} in [${node.values.map((v) => (v.kind === 'String' ? JSON.stringify(v.value) : v.raw)).join(',')}]`;
    case 'InRange':
      return `${node.field.path} in [${node.low.kind === 'String' ? JSON.stringify(node.low.value) : node.low.raw}:${node.high.kind === 'String' ? JSON.stringify(node.high.value) : node.high.raw}]`;
    case 'IsEmpty':
      return `${node.field.path} is empty`;
    case 'IsNotEmpty':
      return `${node.field.path} is not empty`;
    case 'CountComparison':
      return `count(${node.field.path})${node.op}${node.value.raw}`;
    case 'And':
      return `(and ${node.operands.map(filterShape).join(' ')})`;
    case 'Or':
      return `(or ${node.operands.map(filterShape).join(' ')})`;
    case 'Not':
      return `(not ${filterShape(node.operand)})`;
  }
}

/** A fully parenthesised rendering of a full-text tree. */
export function textShape(node: FullTextNode): string {
  switch (node.kind) {
    case 'TextTerm':
      return (node.wildcard ? `w:${node.text}` : node.text) + (node.boost === undefined ? '' : `^${node.boost}`);
    case 'TextPhrase':
      return (
        `"${node.words.join(' ')}"${node.proximity === undefined ? '' : `~${node.proximity}`}` +
        (node.boost === undefined ? '' : `^${node.boost}`)
      );
    case 'TextAnd':
      return `(AND ${node.operands.map(textShape).join(' ')})`;
    case 'TextOr':
      return `(OR ${node.operands.map(textShape).join(' ')})`;
    case 'TextNot':
      return `(NOT ${textShape(node.operand)})`;
    case 'TextGroup':
      return `[${textShape(node.body)}]`;
    case 'TextRequired':
      return `+${textShape(node.operand)}`;
    case 'TextProhibited':
      return `-${textShape(node.operand)}`;
  }
}

/**
 * Asserts that parsing `text` fails with a QuarryError whose first problem has `code`,
 * a span inside the query and a position; returns that problem for further checks.
 */
export function expectParseError(text: string, code: string, parseFn: (text: string) => unknown = parse): Problem {
  let thrown: unknown;
  try {
    parseFn(text);
  } catch (err) {
    thrown = err;
  }
  assert.ok(
    thrown instanceof QuarryError,
    `expected a QuarryError for ${JSON.stringify(text.slice(0, 80))}, got ${String(thrown)}`,
  );
  const first = thrown.first;
  assert.equal(first.code, code, first.message);
  assertPositioned(text, first);
  return first;
}

/** A problem from the parser must carry a registered code, a span within the text and a position. */
export function assertPositioned(text: string, problem: Problem): void {
  assert.ok(Object.hasOwn(ERROR_CODES, problem.code), `unregistered code ${problem.code}`);
  assert.ok(problem.span, `${problem.code} has no span`);
  assert.ok(problem.position, `${problem.code} has no position`);
  assert.ok(
    problem.span.start >= 0 && problem.span.start <= problem.span.end && problem.span.end <= text.length,
    `${problem.code} span ${JSON.stringify(problem.span)} outside the text (length ${text.length})`,
  );
}

export function columnOf(problem: Problem): number {
  assert.ok(problem.position);
  return problem.position.column;
}

export type { Query };
