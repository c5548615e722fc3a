/**
 * Wildcard patterns (`ital?`, `te*t`, `*est`) cannot be asked of FTS5 directly; they are
 * expanded against the index's vocabulary table (fts5vocab, one row per distinct token)
 * into the tokens they match. The expansion is capped so one pattern cannot build a huge
 * query; the cap is reported as a warning.
 */
import type Database from 'better-sqlite3';
import { ident } from '../../../compile/sql.ts';
import { MAX_PATTERN_TERMS, patternCapWarning } from '../../pattern-limit.ts';

export { MAX_PATTERN_TERMS } from '../../pattern-limit.ts';

export interface Vocabulary {
  expand(vocabTable: string, glob: string): readonly string[];
  /** Warnings produced by expansions since the last call. */
  takeWarnings(): string[];
}

export function vocabulary(db: Database.Database): Vocabulary {
  const statements = new Map<string, Database.Statement>();
  let warnings: string[] = [];
  const statement = (vocabTable: string, ranged: boolean): Database.Statement => {
    const key = `${vocabTable}:${String(ranged)}`;
    let stmt = statements.get(key);
    if (stmt === undefined) {
      // With a literal prefix the vocabulary is read only over that range of terms.
      const range = ranged ? ' AND term >= ? AND term < ?' : '';
      stmt = db
        .prepare(`SELECT term FROM ${ident(vocabTable)} WHERE term GLOB ?${range} ORDER BY doc DESC LIMIT ?`)
        .pluck();
      statements.set(key, stmt);
    }
    return stmt;
  };
  return {
    expand(vocabTable, glob) {
      const prefix = literalPrefix(glob);
      const ranged = prefix !== '' && prefix.charCodeAt(prefix.length - 1) < 0xd800;
      const terms = (
        !ranged
          ? statement(vocabTable, false).all(glob, MAX_PATTERN_TERMS + 1)
          : statement(vocabTable, true).all(glob, prefix, nextString(prefix), MAX_PATTERN_TERMS + 1)
      ) as string[];
      if (terms.length > MAX_PATTERN_TERMS) {
        warnings.push(patternCapWarning(glob));
        return terms.slice(0, MAX_PATTERN_TERMS);
      }
      return terms;
    },
    takeWarnings() {
      const out = warnings;
      warnings = [];
      return out;
    },
  };
}

/** The part of a GLOB pattern before its first wildcard or character class. */
export function literalPrefix(glob: string): string {
  const i = glob.search(/[*?[]/);
  return i < 0 ? glob : glob.slice(0, i);
}

/** The smallest string greater than every string starting with `prefix`. */
function nextString(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}
