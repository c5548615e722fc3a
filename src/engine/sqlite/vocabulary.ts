/**
 * Wildcard patterns (`ital?`, `te*t`, `*est`) cannot be asked of FTS5 directly; they are
 * expanded against the index's vocabulary table (fts5vocab, one row per distinct token)
 * into the tokens they match. The expansion is capped so one pattern cannot build a huge
 * query; the cap is reported as a warning.
 */
import type Database from 'better-sqlite3';
import { ident } from '../../compile/sqlite/sql.ts';

export const MAX_PATTERN_TERMS = 200;

export interface Vocabulary {
  expand(vocabTable: string, glob: string): readonly string[];
  /** Warnings produced by expansions since the last call. */
  takeWarnings(): string[];
}

export function vocabulary(db: Database.Database): Vocabulary {
  const statements = new Map<string, Database.Statement>();
  let warnings: string[] = [];
  return {
    expand(vocabTable, glob) {
      let stmt = statements.get(vocabTable);
      if (stmt === undefined) {
        stmt = db.prepare(`SELECT term FROM ${ident(vocabTable)} WHERE term GLOB ? ORDER BY doc DESC LIMIT ?`).pluck();
        statements.set(vocabTable, stmt);
      }
      const terms = stmt.all(glob, MAX_PATTERN_TERMS + 1) as string[];
      if (terms.length > MAX_PATTERN_TERMS) {
        warnings.push(`The wildcard pattern '${glob}' matches more than ${MAX_PATTERN_TERMS} indexed words; only the ${MAX_PATTERN_TERMS} most frequent were searched.`);
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
