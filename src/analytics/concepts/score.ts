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
import { words } from '../text/words.ts';
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
/** Sets how fast relevance nears 1: a raw score of SCALE maps to 1 - 1/e. */
const SCALE = 2.5;

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
  const scored: { concept: string; score: number }[] = [];
  for (const c of candidates(ws, vocabulary).values()) {
    const label = c.held ? (vocabulary.byKey(c.key)?.label ?? c.surface) : c.surface;
    scored.push({ concept: label, score: raw(c, vocabulary, ws.length) });
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
