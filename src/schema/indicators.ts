import type { IndicatorDescriptor, IndicatorName } from './types.ts';

/** Every aggregate indicator (spec/data-model.md): how it is computed and from which field. */
export const INDICATORS: ReadonlyMap<IndicatorName, IndicatorDescriptor> = new Map(
  (
    [
      { name: 'count', type: 'integer', aggregation: 'count', description: 'Number of matching records.' },
      {
        name: 'citations_total',
        type: 'integer',
        aggregation: 'sum',
        field: 'times_cited',
        description: 'Sum of times_cited.',
      },
      {
        name: 'citations_avg',
        type: 'float',
        aggregation: 'avg',
        field: 'times_cited',
        description: 'Mean of times_cited.',
      },
      {
        name: 'citations_median',
        type: 'float',
        aggregation: 'median',
        field: 'times_cited',
        description: 'Median of times_cited.',
      },
      {
        name: 'recent_citations_total',
        type: 'integer',
        aggregation: 'sum',
        field: 'recent_citations',
        description: 'Sum of recent_citations.',
      },
      {
        name: 'altmetric_avg',
        type: 'float',
        aggregation: 'avg',
        field: 'altmetric',
        description: 'Mean Altmetric score.',
      },
      {
        name: 'altmetric_median',
        type: 'float',
        aggregation: 'median',
        field: 'altmetric',
        description: 'Median Altmetric score.',
      },
      {
        name: 'rcr_avg',
        type: 'float',
        aggregation: 'avg',
        field: 'relative_citation_ratio',
        description: 'Mean relative_citation_ratio.',
      },
      {
        name: 'fcr_gavg',
        type: 'float',
        aggregation: 'geometric_mean',
        field: 'field_citation_ratio',
        description: 'Geometric mean of field_citation_ratio.',
      },
      {
        name: 'funding',
        type: 'float',
        aggregation: 'sum',
        field: 'funding_usd',
        description: 'Total funding in USD.',
      },
    ] satisfies IndicatorDescriptor[]
  ).map((d) => [d.name, Object.freeze(d)]),
);

export function isIndicatorName(name: string): name is IndicatorName {
  return INDICATORS.has(name as IndicatorName);
}
