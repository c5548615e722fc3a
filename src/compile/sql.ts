/**
 * SQL fragments: text with `?` placeholders (numbered by the dialect at the end) and the values bound to them, kept together so
 * a value can never end up in the text. Identifiers come only from the storage layout and
 * the schema, and still pass `ident`, which refuses anything but a plain name.
 */

export type SqlParam = string | number | null;

export interface Sql {
  readonly text: string;
  readonly params: readonly SqlParam[];
}

/** A fragment with its bound values, e.g. `frag('s.year = ?', [2020])`. */
export function frag(text: string, params: readonly SqlParam[] = []): Sql {
  return { text, params };
}

/** Joins fragments with a separator, keeping the parameters in order. */
export function joinSql(parts: readonly Sql[], separator: string): Sql {
  return { text: parts.map((p) => p.text).join(separator), params: parts.flatMap((p) => p.params) };
}

/** Concatenates fragments and plain text pieces. */
export function concat(...parts: ReadonlyArray<Sql | string>): Sql {
  return joinSql(
    parts.map((p) => (typeof p === 'string' ? frag(p) : p)),
    '',
  );
}

/** A quoted identifier; throws on anything but `[A-Za-z_][A-Za-z0-9_]*` (never user text). */
export function ident(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid SQL identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** A string literal for a layout constant (a link table discriminator); plain names only. */
export function literal(value: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(value)) throw new Error(`invalid layout constant ${JSON.stringify(value)}`);
  return `'${value}'`;
}
