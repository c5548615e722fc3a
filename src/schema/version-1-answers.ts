/**
 * Where version 1 answered differently from version 2 beyond the renamed fields, as the
 * hosted service's real v1 answers show (spec/sample-results 01 and 03, schema-2026.md §8).
 */
import type { SourceName } from './types.ts';

/**
 * Fields of version 2's `basics` that version 1's `basics` held under their v1 name: a v1
 * `return publications` gave `author_affiliations`, not `authors` (sample 01). The v1 name
 * comes without a deprecation warning there, as it did.
 */
export const V1_BASICS_NAMES: Readonly<Partial<Record<SourceName, Readonly<Record<string, string>>>>> = {
  publications: { authors: 'author_affiliations' },
};

/**
 * The `_warnings` of a v1 `[all]`, as the hosted service gave them (sample 03): the fields
 * it then called deprecated, with the replacement it named. `open_access` was deprecated in
 * favour of `open_access_categories` at the time; version 2 reversed that. Sources not
 * listed warn for each deprecated field `[all]` holds.
 */
export const V1_ALL_WARNINGS: Readonly<
  Partial<Record<SourceName, readonly { readonly name: string; readonly replacement: string }[]>>
> = {
  publications: [
    { name: 'terms', replacement: 'concepts' },
    { name: 'open_access', replacement: 'open_access_categories' },
    { name: 'references', replacement: 'reference_ids' },
  ],
};
