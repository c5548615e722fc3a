/**
 * DSL text from a tool's JSON input: string literals and statement calls. Values are always
 * written as literals (never spliced in as words), so an argument cannot change the shape of
 * the statement it goes into.
 */

/**
 * A double-quoted DSL string that reads back as `value`: every backslash and quote escaped,
 * which the lexer decodes (`\\` → `\`, `\"` → `"`).
 *
 * @example dslString('say "hi"') // '"say \\"hi\\""'
 */
export function dslString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A JSON value as a DSL argument value (strings, numbers, booleans, null, lists, objects); anything else is null. */
export function dslValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return dslString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(dslValue).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${dslString(k)}: ${dslValue(v)}`);
    return `{${entries.join(', ')}}`;
  }
  return 'null';
}

/**
 * A statement function call with named arguments; absent ones are left out.
 *
 * @example dslCall('extract_grants', { grant_number: 'R01 CA123456', fundref: undefined })
 * // 'extract_grants(grant_number="R01 CA123456")'
 */
export function dslCall(name: string, args: Readonly<Record<string, unknown>>): string {
  const named = Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${dslValue(v)}`);
  return `${name}(${named.join(', ')})`;
}
