/**
 * The ids of a vocabulary table's texts (`LinkTableSpec.interned`: `cited_ids`,
 * `concept_names`) as the SQLite writer gives them to link rows: a text already held keeps its
 * id, a new one is added. The writer remembers the ids it has read or added, so a text linked
 * again (a publication cited by twenty others) costs a map lookup instead of two probes of the
 * vocabulary's unique index (at 1M publications the probes took the writing thread from 101 to
 * 144 s of CPU while loading).
 *
 * What is remembered must be in the database: ids added in a transaction that rolls back are
 * gone there (and could be given to other texts), so the writer calls `forget()` whenever a
 * transaction fails. Ids are never deleted or reused otherwise, so remembering stays right
 * whatever other connections write.
 *
 * @example
 *   const ids = new VocabularyIds(db, { table: 'concept_names', column: 'name', replaced: 'concept' });
 *   ids.idOf('graphene'); // 1, added
 *   ids.idOf('graphene'); // 1, remembered
 */
import type { Database, Statement } from 'better-sqlite3';
import type { InternedValues } from '../../model/storage.ts';

/**
 * Texts remembered at most, per vocabulary: past it the memory is cleared and fills again
 * (1M publications cite 805,682 ids, about 60 MiB remembered; 10M would cite about ten times
 * as many).
 */
const REMEMBERED = 2_000_000;

export class VocabularyIds {
  private readonly known = new Map<string, number>();
  private readonly find: Statement<[string], number>;
  private readonly add: Statement<[string]>;

  constructor(db: Database, vocabulary: InternedValues) {
    this.find = db
      .prepare<[string], number>(`SELECT id FROM ${vocabulary.table} WHERE ${vocabulary.column} = ?`)
      .pluck();
    this.add = db.prepare<[string]>(`INSERT INTO ${vocabulary.table} (${vocabulary.column}) VALUES (?)`);
  }

  /** The id of `text`, added to the vocabulary when it has none. */
  idOf(text: string): number {
    const remembered = this.known.get(text);
    if (remembered !== undefined) return remembered;
    const id = this.find.get(text) ?? Number(this.add.run(text).lastInsertRowid);
    if (this.known.size >= REMEMBERED) this.known.clear();
    this.known.set(text, id);
    return id;
  }

  /** Forgets every id remembered (a transaction failed: some of them may be gone). */
  forget(): void {
    this.known.clear();
  }
}

/**
 * A writer's `VocabularyIds`, one per vocabulary table (shared by the link tables interned into
 * it), and the rule that keeps what they remember in the database.
 */
export class WriterVocabularies {
  private readonly byTable = new Map<string, VocabularyIds>();

  constructor(private readonly db: Database) {}

  /** The ids of `vocabulary`'s texts, made on first use. */
  of(vocabulary: InternedValues): VocabularyIds {
    let ids = this.byTable.get(vocabulary.table);
    if (ids === undefined) this.byTable.set(vocabulary.table, (ids = new VocabularyIds(this.db, vocabulary)));
    return ids;
  }

  /**
   * Runs `fn` (a transaction, or a savepoint inside one); if it fails, the vocabulary ids it
   * added are gone from the database, so the writer forgets every id it remembers.
   */
  forgettingOnFailure<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      for (const ids of this.byTable.values()) ids.forget();
      throw error;
    }
  }
}
