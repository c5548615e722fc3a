import type { FunctionDescriptor } from './types.ts';

/** Every source of the hosted service's current schema (spec/schema-2026.md §7); the registry holds each one (test/schema/offered.test.ts). */
export const HOSTED_SOURCES = [
  'publications',
  'grants',
  'researchers',
  'organizations',
  'patents',
  'datasets',
  'clinical_trials',
  'policy_documents',
  'reports',
  'source_titles',
  'funder_groups',
  'research_org_groups',
] as const;

/**
 * Functions of the hosted service this deployment does not offer (spec/dsl.md §8). A name
 * leaves this list when its statement function joins `src/functions/registry.ts`.
 */
export const UNSUPPORTED_FUNCTIONS: ReadonlySet<string> = new Set(['similar_documents']);

/** Earliest and latest year `citations_per_year` accepts, and the widest span. */
export const CITATION_YEARS = { min: 1000, max: 3000, maxSpan: 200 } as const;

/** Functions this deployment offers, in return clauses of a search. */
/** Currencies `funding_per_year` accepts: those the grants hold a `funding_<currency>` field for. */
export const FUNDING_CURRENCIES = ['USD', 'AUD', 'CAD', 'CHF', 'CNY', 'EUR', 'GBP', 'JPY', 'NZD'] as const;

export const FUNCTIONS: ReadonlyMap<string, FunctionDescriptor> = new Map<string, FunctionDescriptor>([
  [
    'citations_per_year',
    Object.freeze({
      name: 'citations_per_year',
      description:
        'Citations received by the matching publications in each year from `from` to `to` (inclusive), counted in the year of the citing publication. An object keyed by year: {"2010": 13, "2011": 14}.',
      sources: Object.freeze(['publications'] as const),
      parameters: Object.freeze([
        { name: 'from', type: 'integer', description: 'First year.' } as const,
        { name: 'to', type: 'integer', description: 'Last year (at most 200 years after from).' } as const,
      ]),
    }),
  ],
  [
    'funding_per_year',
    Object.freeze({
      name: 'funding_per_year',
      description:
        'Funding of the matching grants in each year from `from` to `to` (inclusive), in `currency`: each grant\'s amount spread evenly over its active years (its start year when it has none). An object keyed by year: {"2015": 313173.0}.',
      sources: Object.freeze(['grants'] as const),
      parameters: Object.freeze([
        { name: 'from', type: 'integer', description: 'First year.' } as const,
        { name: 'to', type: 'integer', description: 'Last year (at most 200 years after from).' } as const,
        {
          name: 'currency',
          type: 'string',
          description: `Currency of the amounts: ${FUNDING_CURRENCIES.join(', ')}.`,
        } as const,
      ]),
    }),
  ],
]);
