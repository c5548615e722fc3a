/**
 * Wildcard patterns (`ital?`, `*est`) are expanded into the indexed words they match; the
 * expansion is capped so one pattern cannot build a huge query, the same for every back end,
 * and the cap is reported as a warning.
 */
export const MAX_PATTERN_TERMS = 200;

/** The `_warnings` entry for a pattern whose expansion was capped. */
export function patternCapWarning(glob: string): string {
  return `The wildcard pattern '${glob}' matches more than ${MAX_PATTERN_TERMS} indexed words; only the ${MAX_PATTERN_TERMS} most frequent were searched.`;
}
