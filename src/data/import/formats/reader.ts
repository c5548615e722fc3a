/** The shape every source format implements: raw records in, native records out. */
import type { Mapped } from './common.ts';

/** How a format's files hold records. */
export type Container = 'jsonl' | 'json-array' | 'csv';

export interface FormatReader {
  readonly container: Container;
  /**
   * True when `map` depends on the source record alone (no state kept across records), so
   * records may be mapped in other threads, in any order.
   */
  readonly pure?: boolean;
  /**
   * Maps one source record (a JSON text, or for CSV the row's fields by header name) to
   * native records. Throws MalformedRecord for a record that cannot be used.
   */
  map(source: string | Readonly<Record<string, string>>): Mapped[];
  /** For CSV: the header's columns, before the first row (throws MissingColumn when one it needs lacks). */
  header?(columns: readonly string[]): void;
  /** Records gathered across the file (for example researchers), after its last record. */
  end(): Mapped[];
}
