/**
 * Checking a query corpus (such as `conformance/queries.txt`) against the language and the
 * schema: each query either validates, is rejected because it uses a source or function
 * this deployment does not offer, or fails. A query marked `# expected: error (reason)` is
 * fine when it is rejected for that reason, and fails when it validates.
 */
import { parse, readQueryCorpus, type CorpusQuery } from '../dsl/index.ts';
import { definitionOf, isQuarryError, type QuarryError } from '../errors/index.ts';
import type { StatementChecks } from './statements.ts';
import type { DslVersion } from './types.ts';
import { validate } from './validate.ts';

export type CheckOutcome = 'ok' | 'failed' | 'unsupported';

export interface CorpusCheckOptions {
  readonly dslVersion: DslVersion;
  /** The statement functions offered (`src/functions/registry.ts`); without it their calls are not offered. */
  readonly statements?: StatementChecks;
}

export interface CheckedQuery {
  readonly entry: CorpusQuery;
  readonly outcome: CheckOutcome;
  /** Why it failed, in a sentence (empty when ok). */
  readonly why: string;
  /** The rejection, when the query was rejected. */
  readonly error?: QuarryError;
  readonly warnings: readonly string[];
}

export interface CorpusReport {
  readonly results: readonly CheckedQuery[];
  readonly ok: number;
  readonly failed: number;
  readonly unsupported: number;
}

/**
 * Checks one query.
 *
 * @example checkQuery({ query: 'search patents return patents', line: 1 }, { dslVersion: 2 }).outcome // 'unsupported'
 */
export function checkQuery(entry: CorpusQuery, options: CorpusCheckOptions): CheckedQuery {
  const expected = expectedError(entry.expected);
  let warnings: readonly string[] = [];
  try {
    warnings = validate(parse(entry.query), {
      dslVersion: options.dslVersion,
      source: entry.query,
      ...(options.statements === undefined ? {} : { statements: options.statements }),
    }).warnings;
  } catch (error) {
    if (!isQuarryError(error)) {
      return {
        entry,
        outcome: 'failed',
        why: `crashed: ${error instanceof Error ? error.message : String(error)}`,
        warnings,
      };
    }
    if (expected !== undefined) {
      return matchesReason(expected, error)
        ? { entry, outcome: 'ok', why: '', error, warnings }
        : { entry, outcome: 'failed', why: `rejected, but not for the expected reason (${expected})`, error, warnings };
    }
    if (error.category === 'unsupported') return { entry, outcome: 'unsupported', why: '', error, warnings };
    return { entry, outcome: 'failed', why: 'rejected', error, warnings };
  }
  if (expected !== undefined)
    return { entry, outcome: 'failed', why: `validated, but it should be rejected (${expected})`, warnings };
  return { entry, outcome: 'ok', why: '', warnings };
}

/** Checks every query of a corpus text (records separated by `---`, `#` comments). */
export function checkCorpus(text: string, options: CorpusCheckOptions): CorpusReport {
  const results = readQueryCorpus(text).map((entry) => checkQuery(entry, options));
  const count = (o: CheckOutcome): number => results.filter((r) => r.outcome === o).length;
  return { results, ok: count('ok'), failed: count('failed'), unsupported: count('unsupported') };
}

/** The reason of `error (reason)`; an `# expected:` line that is not an error expectation gives undefined. */
function expectedError(expected: string | undefined): string | undefined {
  if (expected === undefined) return undefined;
  const m = /^error\b\s*(?:\((.*)\))?\s*$/is.exec(expected.trim());
  if (m === null) return undefined;
  return (m[1] ?? '').trim();
}

const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'is',
  'are',
  'be',
  'of',
  'on',
  'in',
  'to',
  'for',
  'by',
  'with',
  'and',
  'or',
  'it',
  'its',
  'this',
  'that',
  'has',
  'have',
  'as',
  'at',
  'you',
]);

/** Words with the same meaning in reasons and messages. */
const SYNONYMS: Readonly<Record<string, string>> = {
  above: 'exceed',
  exceeds: 'exceed',
  exceeded: 'exceed',
  offset: 'skip',
  parenthesized: 'parenthesised',
  unsupported: 'support',
  supported: 'support',
  allowed: 'support',
};

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && !STOPWORDS.has(w))
    .map((w) => SYNONYMS[w] ?? (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w));
}

/**
 * Whether a rejection is for the stated reason: at least two thirds of the reason's words
 * (stop words dropped, plurals folded, a few synonyms such as skip/offset) occur in the
 * error's messages, codes or category. An empty reason accepts any rejection.
 *
 * @example matchesReason('limit above 1000', <SCHEMA_LIMIT_TOO_LARGE "Limit 2000 exceeds maximum allowed limit 1000.">) // true
 */
export function matchesReason(reason: string, error: QuarryError): boolean {
  const wanted = words(reason);
  if (wanted.length === 0) return true;
  const have = new Set(
    words(
      [
        ...error.problems.map((p) => `${p.message} ${p.code.replaceAll('_', ' ')} ${definitionOf(p.code).category}`),
        'error',
      ].join(' '),
    ),
  );
  const found = wanted.filter((w) => have.has(w)).length;
  return found * 3 >= wanted.length * 2;
}
