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

// Word endings that rarely end an English noun phrase: adverbs, participles, and the usual
// adjective endings (-ic, -al, -ous, -ive, -ble, -ful, -less, -ular/-olar/-ear), save the
// nouns below that share them. Held concepts are exempt: the vocabulary knows better.
const NOT_A_HEAD = /(?:ly|[^e]ed|ing|ic|al|ous|ive|ble|ful|less|ular|olar|inear|clear)$/;
const NOUNS_LIKE_ADJECTIVES = new Set(
  (
    'trial signal material animal hospital capital interval journal protocol chemical individual metal crystal ' +
    'terminal arrival approval removal survival renewal proposal disposal portal canal goal principal rival ' +
    'radical mammal festival manual tutorial mineral cereal criminal topic clinic logic music ' +
    'epidemic pandemic graphic plastic mechanic traffic fabric panic arithmetic rhetoric critic mosaic ' +
    'characteristic antibiotic narrative perspective incentive initiative objective alternative derivative ' +
    'explosive detective directive executive representative relative adhesive additive variable vehicle ' +
    'bible syllable building learning training modeling modelling funding planning processing ' +
    'engineering computing mapping sampling screening monitoring reasoning sensing imaging testing teaching ' +
    'nursing housing bleeding signaling signalling scaling clustering forecasting manufacturing marketing ' +
    'accounting banking mining farming fishing warming cooling heating lighting welding printing writing ' +
    'reading speaking hearing thinking understanding meaning setting spending lending trading pricing ' +
    'timing wellbeing well-being seed need speed feed breed weed'
  ).split(' '),
);
// Words too vague to stand as a concept, or to start one, though they may sit inside one.
const VAGUE = new Set(
  (
    'high low large small different important significant novel recent current possible specific total main ' +
    'major key good better best great similar higher lower associated related including among respectively ' +
    'compared furthermore addition strong weak tiny huge thick thin nonetheless whole certain particular ' +
    'previous following able unable likely common wide broad long short early late full single multiple ' +
    'less more much little considerable substantial'
  ).split(' '),
);

// Those nouns also end compounds (semimetal, antibodies' kin): matched as endings.
const NOUN_ENDING = new RegExp(`(?:${[...NOUNS_LIKE_ADJECTIVES].join('|')})$`);

const nounEnding = new Map<string, boolean>();
/** NOUN_ENDING.test, remembered (the pattern has a hundred branches; words recur). */
function endsLikeNoun(word: string): boolean {
  let known = nounEnding.get(word);
  if (known === undefined) {
    known = NOUN_ENDING.test(word);
    if (nounEnding.size > 100_000) nounEnding.clear();
    nounEnding.set(word, known);
  }
  return known;
}

function headless(word: string): boolean {
  return NOT_A_HEAD.test(word) && word.length > 4 && !endsLikeNoun(word);
}

/** A participle or gerund that starts a run ("applying gate voltage") is a verb, not part of the concept. */
function verbal(word: string): boolean {
  return /(?:ing|[^e]ed)$/.test(word) && word.length > 4 && !endsLikeNoun(word);
}

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
        if (headless(head) || VAGUE.has(head) || VAGUE.has(first) || first.endsWith('ly') || verbal(first)) continue;
        if (b - a === 1 && first.length < 3) continue;
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
