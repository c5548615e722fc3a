/**
 * Ranks a text's candidate concepts by relevance in [0, 1]: how often the text names one
 * (damped), how specific its words are across the deployment's texts (idf), whether the
 * deployment holds it as a concept, how many words it has, and how early the text names it
 * (a title comes first).
 *
 * @example
 *   extractConcepts('Graphene field effect transistors ...', vocabulary);
 *   // [{concept: 'graphene', relevance: 0.81}, {concept: 'field effect transistors', relevance: 0.74}, ...]
 */
import { phraseKey, words } from '../text/words.ts';
import { candidates, type Candidate } from './phrases.ts';
import type { ConceptVocabulary } from './vocabulary.ts';

export interface ScoredConcept {
  readonly concept: string;
  readonly relevance: number;
}

export interface ExtractOptions {
  /** At most this many concepts (default 50). */
  readonly limit?: number;
  /** Concepts below this relevance are left out (default 0.05). */
  readonly minRelevance?: number;
}

/** The weight a held concept gets over a free phrase of the same words. */
const HELD_WEIGHT = 1.6;
/**
 * The weight of a free phrase the text never uses but inside a longer candidate ("square" of
 * "square centimeter", "ambipolar electric field" of "ambipolar electric field effect").
 */
const INSIDE_WEIGHT = 0.6;
/** Sets how fast relevance nears 1: a raw score of SCALE maps to 1 - 1/e. */
const SCALE = 2.5;

/**
 * For every run of whole words inside a candidate (not the candidate itself), the most times
 * a candidate containing it occurs.
 */
function containedCounts(found: readonly Candidate[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const d of found) {
    const ws = d.key.split(' ');
    for (let a = 0; a < ws.length; a++)
      for (let b = a + 1; b <= ws.length; b++) {
        if (a === 0 && b === ws.length) continue;
        const key = phraseKey(ws.slice(a, b));
        if ((out.get(key) ?? 0) < d.count) out.set(key, d.count);
      }
  }
  return out;
}

function raw(c: Candidate, vocabulary: ConceptVocabulary, textWords: number): number {
  const tf = 1 + Math.log(c.count);
  let idf = 0;
  for (const w of c.contentWords) idf += vocabulary.idf(w);
  idf /= c.contentWords.length * vocabulary.maxIdf;
  const held = c.held ? HELD_WEIGHT : 1;
  const length = 1 + 0.2 * (Math.min(c.contentWords.length, 4) - 1);
  const position = 1 + 0.3 * (1 - c.first / Math.max(1, textWords));
  return tf * idf * held * length * position;
}

/** The key concepts of a text, most relevant first. */
export function extractConcepts(
  text: string,
  vocabulary: ConceptVocabulary,
  options: ExtractOptions = {},
): ScoredConcept[] {
  const limit = options.limit ?? 50;
  const min = options.minRelevance ?? 0.05;
  const ws = words(text);
  const found = [...candidates(ws, vocabulary).values()];
  const contained = containedCounts(found);
  const scored: { concept: string; score: number }[] = [];
  for (const c of found) {
    const label = c.held ? (vocabulary.byKey(c.key)?.label ?? c.surface) : c.surface;
    const inside = !c.held && (contained.get(c.key) ?? 0) >= c.count;
    scored.push({ concept: label, score: raw(c, vocabulary, ws.length) * (inside ? INSIDE_WEIGHT : 1) });
  }
  scored.sort((a, b) => b.score - a.score || a.concept.localeCompare(b.concept));
  const out: ScoredConcept[] = [];
  for (const s of scored) {
    if (out.length >= limit) break;
    const relevance = Math.round((1 - Math.exp(-s.score / SCALE)) * 1000) / 1000;
    if (relevance < min) break;
    out.push({ concept: s.concept, relevance });
  }
  return out;
}
