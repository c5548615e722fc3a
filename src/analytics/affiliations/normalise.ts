/**
 * How affiliation strings and organization names are brought to one form before they are
 * compared: lower case, no accents, `&` as `and`, common abbreviations spelled out
 * (`Univ.` → `university`), punctuation and a few stop words dropped. Names and strings go
 * through the same function, so an exact look-up of the result is the whole comparison.
 */

const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['univ', 'university'],
  ['universiteit', 'university'],
  ['universitat', 'university'],
  ['universitaet', 'university'],
  ['universita', 'university'],
  ['universidad', 'university'],
  ['universidade', 'university'],
  ['universite', 'university'],
  ['universitatea', 'university'],
  ['technische', 'technical'],
  ['uni', 'university'],
  ['inst', 'institute'],
  ['institut', 'institute'],
  ['instituto', 'institute'],
  ['istituto', 'institute'],
  ['natl', 'national'],
  ['nat', 'national'],
  ['ctr', 'center'],
  ['cntr', 'center'],
  ['centre', 'center'],
  ['centro', 'center'],
  ['hosp', 'hospital'],
  ['coll', 'college'],
  ['tech', 'technology'],
  ['technol', 'technology'],
  ['sci', 'science'],
  ['sciences', 'science'],
  ['acad', 'academy'],
  ['lab', 'laboratory'],
  ['labs', 'laboratory'],
  ['laboratories', 'laboratory'],
  ['dept', 'department'],
  ['med', 'medical'],
  ['res', 'research'],
  ['st', 'saint'],
  ['mt', 'mount'],
  ['co', 'company'],
  ['corp', 'corporation'],
  ['ltd', 'limited'],
  ['inc', 'incorporated'],
]);

/** Words left out of the compared form: they are written or dropped at will. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    'the',
    'of',
    'and',
    'for',
    'at',
    'in',
    'on',
    'de',
    'di',
    'des',
    'du',
    'der',
    'la',
    'le',
    'les',
    'el',
    'l',
    'd',
  ].concat([
    'della',
    'dell',
    'del',
    'degli',
    'delle',
    'dei',
    'do',
    'da',
    'dos',
    'das',
    'y',
    'e',
    'et',
    'und',
    'fur',
    'zu',
  ]),
);

/** The words of a text, lower case, accents and punctuation gone, abbreviations spelled out, stop words kept. */
export function words(text: string): string[] {
  const plain = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ł/g, 'l')
    .replace(/&/g, ' and ')
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (plain.length === 0) return [];
  return plain.split(' ').map((w) => ABBREVIATIONS.get(w) ?? w);
}

/** The compared form of a name or a piece of an affiliation: its words without stop words, joined by spaces. */
export function normalise(text: string): string {
  return significant(words(text)).join(' ');
}

/** Whether a word is left out of the compared form. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** The words that count when comparing (stop words dropped). */
export function significant(list: readonly string[]): string[] {
  return list.filter((w) => !STOP_WORDS.has(w));
}

/**
 * The pieces of an affiliation string, in order: split on `;`, `,`, `|`, line breaks and
 * parentheses, empty ones dropped.
 */
export function segments(text: string): string[] {
  return text
    .split(/[;,|\n\r()[\]]+|\s[-–—]\s/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
