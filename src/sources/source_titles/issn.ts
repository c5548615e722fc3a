/**
 * ISSNs as the title lists write them: `0028-0836`, `00280836`, `1582313x`. Quarry keeps the
 * hyphenated upper-case form (`NNNN-NNNX`), so a title's ISSNs from several lists compare
 * equal and a filter `issn = "0028-0836"` finds it whichever list it came from.
 */

/** The ISSN in its written form, or undefined for text that is no ISSN. */
export function normalIssn(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const compact = value.trim().replace(/-/g, '').toUpperCase();
  return /^\d{7}[\dX]$/.test(compact) ? `${compact.slice(0, 4)}-${compact.slice(4)}` : undefined;
}

/** The distinct ISSNs of `values`, in order, each written the same way; what is no ISSN is left out. */
export function issnList(values: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const issn = normalIssn(value);
    if (issn !== undefined && !out.includes(issn)) out.push(issn);
  }
  return out;
}
