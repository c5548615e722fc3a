/**
 * Candidate concepts of a text: the held concepts it names (any run of words whose key the
 * vocabulary holds, stop words inside included: "child and adolescent development"), and the
 * noun-phrase-like runs of content words between stop words and clause breaks, up to four
 * words, with every shorter run inside them ("electric field effects", "field effects",
 * "effects").
 */
import { isContentWord, phraseKey, type Word } from '../text/words.ts';
import type { ConceptVocabulary } from './vocabulary.ts';

/** One candidate and where the text has it. */
export interface Candidate {
  readonly key: string;
  /** How the text first wrote it. */
  readonly surface: string;
  /** Content words in it. */
  readonly contentWords: readonly string[];
  /** Times the text has it. */
  count: number;
  /** Index of its first word among the text's words. */
  readonly first: number;
  /** Whether the vocabulary holds it. */
  readonly held: boolean;
}

/** Free phrases (not held) are at most this many words. */
export const MAX_FREE_WORDS = 4;

// Word endings that rarely end an English noun phrase (adverbs, participles).
const NOT_A_HEAD = /(?:ly|[^e]ed|ing)$/;
// Words too vague to stand as a concept on their own, though they may sit inside one.
const VAGUE = new Set([
  'high',
  'low',
  'large',
  'small',
  'different',
  'important',
  'significant',
  'significantly',
  'novel',
  'recent',
  'current',
  'potential',
  'possible',
  'specific',
  'total',
  'main',
  'major',
  'key',
  'good',
  'better',
  'best',
  'great',
  'similar',
  'higher',
  'lower',
  'effective',
  'associated',
  'related',
  'including',
  'among',
  'respectively',
  'compared',
  'furthermore',
  'addition',
]);

function surfaceOf(ws: readonly Word[], from: number, to: number): string {
  const parts: string[] = [];
  for (let k = from; k < to; k++) {
    const t = (ws[k] as Word).text;
    // Keep acronyms and mixed case (CO2, mRNA); lower an initial capital of a sentence start.
    parts.push(/^[\p{Lu}][\p{Ll}]+$/u.test(t) ? t.toLowerCase() : t);
  }
  return parts.join(' ');
}

/** Every candidate of a text's words, by key. */
export function candidates(ws: readonly Word[], vocabulary: ConceptVocabulary): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const note = (key: string, from: number, to: number, held: boolean): void => {
    const found = out.get(key);
    if (found !== undefined) {
      found.count++;
      return;
    }
    const contentWords: string[] = [];
    for (let k = from; k < to; k++) {
      const lower = (ws[k] as Word).lower;
      if (isContentWord(lower)) contentWords.push(lower);
    }
    if (contentWords.length === 0) return;
    out.set(key, { key, surface: surfaceOf(ws, from, to), contentWords, count: 1, first: from, held });
  };

  const lower = ws.map((w) => w.lower);
  const longest = Math.min(vocabulary.longest, 8);
  for (let i = 0; i < ws.length; i++) {
    // Held concepts: any run that does not cross a clause break and neither starts nor ends with a stop word.
    if (!isContentWord(lower[i] as string)) continue;
    for (let n = 1; n <= longest && i + n <= ws.length; n++) {
      if (n > 1 && (ws[i + n - 1] as Word).breakBefore) break;
      const end = lower[i + n - 1] as string;
      if (!isContentWord(end)) continue;
      const key = phraseKey(lower.slice(i, i + n));
      if (vocabulary.byKey(key) !== undefined) note(key, i, i + n, true);
    }
  }

  // Free phrases: maximal runs of content words, and the runs inside them.
  let start = 0;
  const flush = (from: number, to: number): void => {
    for (let a = from; a < to; a++) {
      for (let b = a + 1; b <= Math.min(to, a + MAX_FREE_WORDS); b++) {
        const head = lower[b - 1] as string;
        const first = lower[a] as string;
        if (NOT_A_HEAD.test(head) && head.length > 4) continue;
        if (first.endsWith('ly') || VAGUE.has(head)) continue;
        if (b - a === 1 && (VAGUE.has(first) || first.length < 3)) continue;
        const key = phraseKey(lower.slice(a, b));
        if (vocabulary.byKey(key) !== undefined) continue; // counted above
        note(key, a, b, false);
      }
    }
  };
  for (let i = 0; i <= ws.length; i++) {
    const ends = i === ws.length || !isContentWord(lower[i] as string) || (ws[i] as Word).breakBefore;
    if (!ends) continue;
    if (i > start) flush(start, i);
    start = i < ws.length && isContentWord(lower[i] as string) ? i : i + 1;
  }
  return out;
}
