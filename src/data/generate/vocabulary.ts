/**
 * Topic vocabularies per Fields of Research division, built from the words of the real
 * FoR 2020 group and field labels, plus a general academic vocabulary shared by all fields.
 * Words are drawn with Zipf frequencies (exponent about 1) so text statistics look real.
 */
import type { Draws } from './prng.ts';
import { ZipfTable } from './distributions.ts';
import type { ForCode } from './reference-data.ts';

const GENERAL = (
  'analysis study effect effects model models data method methods results approach role evidence impact ' +
  'development assessment patterns changes based new using case review role response factors structure ' +
  'performance design framework system systems process processes dynamics properties evaluation comparison ' +
  'mechanisms control application applications quality population populations network networks theory ' +
  'measurement estimation distribution variation risk outcomes practice policy management experimental ' +
  'novel improved large scale long term early high low multiple spatial temporal local global regional ' +
  'integrated potential implications perspective perspectives trends challenges strategies characterization ' +
  'identification detection prediction modelling simulation optimization observations survey cohort sample'
).split(' ');

const FUNCTION_WORDS = [
  'of',
  'and',
  'in',
  'for',
  'the',
  'with',
  'on',
  'from',
  'to',
  'a',
  'by',
  'under',
  'across',
  'between',
];

const STOP = new Set([
  'sciences',
  'science',
  'studies',
  'and',
  'of',
  'the',
  'in',
  'for',
  'to',
  'a',
  'an',
  'on',
  'incl',
  'excl',
  'other',
  'not',
  'elsewhere',
  'classified',
  'by',
  'with',
  'from',
  'its',
  'as',
  'or',
  'e.g',
]);

/** Connective words of sentences, by Zipf rank. */
const SENTENCE_GLUE = [
  'the',
  'of',
  'and',
  'in',
  'to',
  'a',
  'is',
  'for',
  'that',
  'with',
  'was',
  'we',
  'were',
  'are',
  'by',
  'this',
  'on',
  'as',
  'these',
  'our',
  'which',
  'from',
  'between',
  'be',
];

/** One division's vocabulary with its Zipf table. */
export interface TopicVocabulary {
  readonly division: string;
  readonly words: readonly string[];
  readonly zipf: ZipfTable;
}

function wordsOf(label: string): string[] {
  return label
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .split(/[^a-z-]+/)
    .map((w) => w.replace(/^-+|-+$/g, ''))
    .filter((w) => w.length > 2 && !STOP.has(w));
}

/** Vocabularies for every division code, from the FoR labels under it. */
export function buildVocabularies(codes: readonly ForCode[]): Map<string, TopicVocabulary> {
  const byDivision = new Map<string, Map<string, number>>();
  for (const c of codes) {
    const division = c.code.slice(0, 2);
    let counts = byDivision.get(division);
    if (counts === undefined) {
      counts = new Map();
      byDivision.set(division, counts);
    }
    // Words of broader labels count more: they are the field's common words.
    const weight = c.level === 'division' ? 6 : c.level === 'group' ? 3 : 1;
    for (const w of wordsOf(c.label)) counts.set(w, (counts.get(w) ?? 0) + weight);
  }
  const out = new Map<string, TopicVocabulary>();
  for (const [division, counts] of byDivision) {
    // Rank by weight (ties by word) then interleave general words so they are common everywhere.
    const topic = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
    const words: string[] = [];
    const seen = new Set<string>();
    let t = 0;
    let g = 0;
    while (t < topic.length || g < GENERAL.length) {
      for (let k = 0; k < 2 && t < topic.length; k++, t++) {
        const w = topic[t] as string;
        if (!seen.has(w)) {
          seen.add(w);
          words.push(w);
        }
      }
      if (g < GENERAL.length) {
        const w = GENERAL[g++] as string;
        if (!seen.has(w)) {
          seen.add(w);
          words.push(w);
        }
      }
    }
    out.set(division, { division, words, zipf: new ZipfTable(words.length, 1.0) });
  }
  return out;
}

/** A title of `n` content words with a few function words between them, capitalised. */
export function makeTitle(vocab: TopicVocabulary, r: Draws, n: number): string {
  const parts: string[] = [];
  for (let k = 0; k < n; k++) {
    if (k > 0 && k < n - 1 && r.chance(0.28)) parts.push(r.pick(FUNCTION_WORDS));
    parts.push(vocab.words[vocab.zipf.sample(r.next())] as string);
  }
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const GLUE_ZIPF = new ZipfTable(SENTENCE_GLUE.length, 1.0);

const GLUE_SHARE = 0.42;

/** Running text of about `n` words in sentences of 12–26 words. */
export function makeText(vocab: TopicVocabulary, r: Draws, n: number): string {
  const words = vocab.words;
  const zipf = vocab.zipf;
  let text = '';
  let left = n;
  while (left > 0) {
    const len = Math.min(left, r.int(12, 26));
    left -= len;
    // One draw per word: its low part chooses glue or topic word, the rest picks the word.
    let sentence = '';
    for (let k = 0; k < len; k++) {
      const u = r.next();
      const w =
        u < GLUE_SHARE
          ? (SENTENCE_GLUE[GLUE_ZIPF.sample(u / GLUE_SHARE)] as string)
          : (words[zipf.sample((u - GLUE_SHARE) / (1 - GLUE_SHARE))] as string);
      sentence = k === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : `${sentence} ${w}`;
    }
    text = text.length === 0 ? `${sentence}.` : `${text} ${sentence}.`;
  }
  return text;
}

/** `n` distinct concept phrases (one or two topic words), most relevant first. */
export function makeConcepts(vocab: TopicVocabulary, r: Draws, n: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let tries = 0; out.length < n && tries < n * 4; tries++) {
    const a = vocab.words[vocab.zipf.sample(r.next())] as string;
    const phrase = r.chance(0.35) ? `${a} ${vocab.words[vocab.zipf.sample(r.next())] as string}` : a;
    if (seen.has(phrase)) continue;
    seen.add(phrase);
    out.push(phrase);
  }
  return out;
}
