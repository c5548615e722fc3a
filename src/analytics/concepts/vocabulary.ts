/**
 * The concept vocabulary of a deployment: every concept its records carry, with how many
 * records carry it (its document frequency), and how many of the sampled records' texts use
 * each word (for the specificity of phrases the vocabulary does not hold).
 *
 * @example
 *   const b = new VocabularyBuilder();
 *   b.add({ concepts: ['graphene', 'field effect'], text: 'Graphene field effect transistors' });
 *   const v = b.build();
 *   v.concept('Field effects'); // { label: 'field effect', records: 1 }
 */
import { isContentWord, keyOfText, lowerWords, phraseKey, words } from '../text/words.ts';

/** A held concept: the form most records write it in, and how many records carry it. */
export interface HeldConcept {
  readonly label: string;
  readonly records: number;
}

/** What one record gives the vocabulary. */
export interface VocabularyRecord {
  /** The record's concepts as held (strings). */
  readonly concepts?: readonly string[];
  /** Its title and abstract, for word frequencies; absent when not sampled. */
  readonly text?: string;
}

/** Concept phrases longer than this many words are left out (they never match running text). */
export const MAX_CONCEPT_WORDS = 8;

export class ConceptVocabulary {
  constructor(
    private readonly concepts: ReadonlyMap<string, HeldConcept>,
    private readonly wordRecords: ReadonlyMap<string, number>,
    /** Records whose text was counted. */
    readonly textRecords: number,
    /** Records whose concepts were counted. */
    readonly conceptRecords: number,
    /** The most words of any held concept. */
    readonly longest: number,
  ) {}

  /** The held concept with this key (see `keyOfText`), if any. */
  byKey(key: string): HeldConcept | undefined {
    return this.concepts.get(key);
  }

  /** The held concept a phrase names, if any. */
  concept(phrase: string): HeldConcept | undefined {
    return this.concepts.get(keyOfText(phrase));
  }

  /** How many concepts it holds. */
  get size(): number {
    return this.concepts.size;
  }

  /**
   * How specific a word is: `ln((N + 1) / (df + 1)) + 1` over the counted texts, so a word
   * no counted text uses is the most specific and one every text uses scores 1.
   */
  idf(lowerWord: string): number {
    const df = this.wordRecords.get(lowerWord) ?? 0;
    return Math.log((this.textRecords + 1) / (df + 1)) + 1;
  }

  /** The largest `idf` a word can have here (a word no counted text uses). */
  get maxIdf(): number {
    return Math.log(this.textRecords + 1) + 1;
  }
}

export class VocabularyBuilder {
  private readonly concepts = new Map<string, { forms: Map<string, number>; records: number }>();
  private readonly wordRecords = new Map<string, number>();
  private textRecords = 0;
  private conceptRecords = 0;
  private longest = 1;

  /** Keys of concept strings already seen (the same strings recur across records). */
  private readonly keyOf = new Map<string, { key: string; words: number }>();

  add(record: VocabularyRecord): void {
    if (record.concepts !== undefined && record.concepts.length > 0) {
      this.conceptRecords++;
      const seen = new Set<string>();
      for (const raw of record.concepts) {
        if (typeof raw !== 'string') continue;
        let known = this.keyOf.get(raw);
        if (known === undefined) {
          const ws = words(raw);
          known = { key: phraseKey(ws.map((w) => w.lower)), words: ws.length };
          this.keyOf.set(raw, known);
        }
        const { key } = known;
        if (known.words === 0 || known.words > MAX_CONCEPT_WORDS || seen.has(key)) continue;
        seen.add(key);
        let entry = this.concepts.get(key);
        if (entry === undefined) {
          entry = { forms: new Map(), records: 0 };
          this.concepts.set(key, entry);
        }
        entry.records++;
        entry.forms.set(raw, (entry.forms.get(raw) ?? 0) + 1);
        if (known.words > this.longest) this.longest = known.words;
      }
    }
    if (record.text !== undefined && record.text.length > 0) {
      this.textRecords++;
      const seen = new Set<string>();
      for (const w of lowerWords(record.text)) if (isContentWord(w)) seen.add(w);
      for (const w of seen) this.wordRecords.set(w, (this.wordRecords.get(w) ?? 0) + 1);
    }
  }

  build(): ConceptVocabulary {
    const held = new Map<string, HeldConcept>();
    for (const [key, { forms, records }] of this.concepts) {
      let label = key;
      let most = 0;
      for (const [raw, n] of forms) {
        const form = raw.trim().replace(/\s+/g, ' ');
        if (n > most || (n === most && form < label)) [label, most] = [form, n];
      }
      held.set(key, { label, records });
    }
    return new ConceptVocabulary(held, this.wordRecords, this.textRecords, this.conceptRecords, this.longest);
  }
}
