import type { ValidationRule } from '../context.ts';
import { aggregateRule } from './aggregate.ts';
import { fieldListRule } from './field-list.ts';
import { filterOperatorRule } from './filter-operator.ts';
import { filterValueRule } from './filter-value.ts';
import { filterableFieldRule } from './filterable-field.ts';
import { knownFieldRule } from './known-field.ts';
import { linkedSourceRule } from './linked-source.ts';
import { pagingRule } from './paging.ts';
import { personNameSearchRule } from './person-name-search.ts';
import { removedFieldRule } from './removed-field.ts';
import { resultKeysRule } from './result-keys.ts';
import { returnTargetRule } from './return-target.ts';
import { searchFunctionRule } from './search-function.ts';
import { searchIndexRule } from './search-index.ts';
import { sortKeyRule } from './sort-key.ts';

export { checkSearchedSource } from './known-source.ts';

/**
 * The rules a search query passes, in the order their problems are most useful to read.
 * `known-source` runs before them all (see `checkSearchedSource`): every rule needs the
 * source. Each rule reports through the context; the driver collects and caps.
 */
export const SEARCH_RULES: readonly ValidationRule[] = [
  searchIndexRule,
  searchFunctionRule,
  personNameSearchRule,
  removedFieldRule,
  knownFieldRule,
  filterableFieldRule,
  filterOperatorRule,
  filterValueRule,
  returnTargetRule,
  fieldListRule,
  linkedSourceRule,
  aggregateRule,
  sortKeyRule,
  pagingRule,
  resultKeysRule,
];
