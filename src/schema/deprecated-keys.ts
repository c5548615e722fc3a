/**
 * Keys inside a field's values that the hosted service marks deprecated without deprecating
 * the field (spec/schema-2026.md §6.4 and §8.1): version 2 answers them still, and says so in
 * `_warnings` whenever a records return carries the field, in the hosted service's words.
 */
import type { DslVersion, SourceName } from './types.ts';
import type { ValidatedSearch } from './validated.ts';

interface DeprecatedKey {
  readonly source: SourceName;
  readonly field: string;
  readonly key: string;
  /** The language versions that warn: the hosted v1 answers carried the key unwarned. */
  readonly versions: readonly DslVersion[];
}

export const DEPRECATED_KEYS: readonly DeprecatedKey[] = [
  { source: 'publications', field: 'authors', key: 'current_organization_id', versions: [2] },
];

/** The hosted service's `_warnings` text for a deprecated key of a field, word for word. */
export function deprecatedKeyWarning(key: string, field: string): string {
  return `Field ${key} of the ${field} field is deprecated and will be removed in the next major release.`;
}

/**
 * The query with a warning added for each deprecated key its records returns carry (after
 * the fieldsets are expanded, so `return publications` warns for its `authors` too).
 *
 * @example withDeprecatedKeyWarnings(validated 'search publications return publications[id + authors]')
 * // .warnings: ['Field current_organization_id of the authors field is deprecated and will be removed in the next major release.']
 */
export function withDeprecatedKeyWarnings(query: ValidatedSearch): ValidatedSearch {
  const warnings = [...query.warnings];
  for (const ret of query.returns) {
    if (ret.kind !== 'records') continue;
    for (const { field } of ret.fields) {
      for (const d of DEPRECATED_KEYS) {
        if (d.source !== field.source || d.field !== field.name || !d.versions.includes(query.dslVersion)) continue;
        const text = deprecatedKeyWarning(d.key, d.field);
        if (!warnings.includes(text)) warnings.push(text);
      }
    }
  }
  return warnings.length === query.warnings.length
    ? query
    : Object.freeze({ ...query, warnings: Object.freeze(warnings) });
}
