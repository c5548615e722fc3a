/**
 * Words of research prose as the text analytics read them: split at anything that is not a
 * letter, digit, hyphen or apostrophe, with the sentence and clause breaks kept so phrases
 * never run across them. Shared by concept extraction and the category classifier.
 *
 * @example
 *   words('Graphene films, a few atoms thick.');
 *   // [{text: 'Graphene', lower: 'graphene', breakBefore: false}, {text: 'films', ...},
 *   //  {text: 'a', lower: 'a', breakBefore: true}, ...]
 */

/** One word of a text. */
export interface Word {
  /** As written. */
  readonly text: string;
  /** Lower case. */
  readonly lower: string;
  /** A clause break (`.`, `,`, `;`, `:`, brackets, quotes) stands between this word and the one before. */
  readonly breakBefore: boolean;
}

const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}'’-]*[\p{L}\p{N}])?/gu;
const BREAK = /[.,;:!?()[\]{}"“”«»/|•]/;

/** The words of `text` in order, each marking whether a clause break precedes it. */
export function words(text: string): Word[] {
  const out: Word[] = [];
  let last = 0;
  for (const m of text.matchAll(WORD)) {
    const at = m.index;
    const between = text.slice(last, at);
    out.push({ text: m[0], lower: m[0].toLowerCase(), breakBefore: out.length > 0 && BREAK.test(between) });
    last = at + m[0].length;
  }
  return out;
}

/** The words of `text`, lower case, without the breaks (faster than `words` where they do not matter). */
export function lowerWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * English function words and the filler of abstracts ("we", "show", "using"): never the
 * start or end of a phrase, never a feature of the classifier.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above across after again against all almost along already also although always am among an and another ' +
    'any anyone anything are around as at be became because become becomes been before being below between both but ' +
    'by can cannot could did do does doing done down due during each either else enough especially etc even ever ' +
    'every few for found from further furthermore given had has have having he hence her here hereby herein hers him ' +
    'his how however i if in into is it its itself just last least less like made mainly make makes many may me ' +
    'might more moreover most mostly much must my near nearly neither no nor not now obtained of off often on once ' +
    'one only onto or other others otherwise our ours out over overall own per perhaps present presented presents ' +
    'previously quite rather really regarding same several shall she should show showed shown shows since so some ' +
    'such than that the their theirs them themselves then there thereby therefore these they this those though ' +
    'through throughout thus to together too toward towards under until up upon us use used uses using various ' +
    'very via was we well were what whatever when where whereas whether which while who whom whose why will with ' +
    'within without would yet you your yours two three four five six seven eight nine ten first second third new ' +
    'based found report reported reports suggest suggests suggested indicate indicates indicated observed ' +
    'investigate investigated investigates study studies studied paper article describe described describes ' +
    'demonstrate demonstrated demonstrates propose proposed proposes provide provided provides result results ' +
    'conclusion conclusions background objective objectives method methods aim aims aimed purpose'
  ).split(' '),
);

/**
 * A light singular: `films` → `film`, `studies` → `study`, `analyses` stays (`-ses`), so
 * a phrase written in the singular and the plural meets itself. Not a stemmer.
 */
const SAME_IN_PLURAL = new Set(
  'series species means news physics mathematics economics politics ethics genetics diabetes linguistics'.split(' '),
);

export function singular(word: string): string {
  if (word.length <= 3 || !word.endsWith('s') || SAME_IN_PLURAL.has(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is|ses|xes|ches|shes|sis)$/.test(word)) return word;
  return word.slice(0, -1);
}

/** The matching key of a phrase: lower case, its last word singular, single spaces. */
export function phraseKey(lowerWords: readonly string[]): string {
  const n = lowerWords.length;
  if (n === 0) return '';
  const last = singular(lowerWords[n - 1] as string);
  return n === 1 ? last : `${lowerWords.slice(0, n - 1).join(' ')} ${last}`;
}

/** The key of a phrase given as text (a held concept): `"Electric field effects"` → `electric field effect`. */
export function keyOfText(phrase: string): string {
  return phraseKey(words(phrase).map((w) => w.lower));
}

/** Whether a word can carry meaning: not a stop word, not a bare number, more than one character. */
export function isContentWord(lower: string): boolean {
  return lower.length > 1 && !STOP_WORDS.has(lower) && !/^[\d.,'’-]+$/.test(lower);
}

/**
 * The classifier's features of a text: its content words, singular, lower case.
 *
 * @example tokens('Graphene films are stable') // ['graphene', 'film', 'stable']
 */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const w of lowerWords(text)) if (isContentWord(w)) out.push(singular(w));
  return out;
}
