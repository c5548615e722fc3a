/**
 * `for similar_documents("text")`: the salient terms of a text, from which a weighted
 * more-like-this search is built. The text is read as plain prose (not as a search string:
 * colons, parentheses and `AND` mean nothing here); stop words, numbers and one-letter words
 * are dropped; the remaining words are ranked by how often the text uses them, then by
 * length (longer words are rarer in an index), and the top ones are kept. Words the text
 * repeats weigh more in relevance. Word pairs the text repeats are added as phrases.
 *
 * The index itself weighs rare words up when it ranks (SQLite's bm25 counts inverse
 * document frequency; PostgreSQL ranks by how many of the words match and how often).
 */

/** The most words a similar_documents search is built from. */
export const MAX_SIMILAR_TERMS = 25;
/** The most repeated word pairs added as phrases. */
export const MAX_SIMILAR_BIGRAMS = 5;

export interface SalientTerm {
  /** One word (lower case), or two words separated by a space for a repeated pair. */
  readonly text: string;
  /** Relevance weight, 1 to 10 (how often the text uses it, capped). */
  readonly weight: number;
}

/**
 * @example salientTerms('Malaria drugs: doses in Africa. Malaria kills.')
 *   // [{ text: 'malaria', weight: 2 }, { text: 'africa', weight: 1 }, { text: 'drugs', ... }, ...]
 */
export function salientTerms(text: string): SalientTerm[] {
  const words = (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []
  ).map((w) => w.replace(/['’]s$/u, ''));
  const kept = words.map((w) => (isSalient(w) ? w : undefined));
  const counts = new Map<string, number>();
  const firstAt = new Map<string, number>();
  kept.forEach((w, i) => {
    if (w === undefined) return;
    counts.set(w, (counts.get(w) ?? 0) + 1);
    if (!firstAt.has(w)) firstAt.set(w, i);
  });
  const ranked = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || b[0].length - a[0].length || (firstAt.get(a[0]) ?? 0) - (firstAt.get(b[0]) ?? 0))
    .slice(0, MAX_SIMILAR_TERMS);
  const out: SalientTerm[] = ranked.map(([w, n]) => ({ text: w, weight: Math.min(10, n) }));
  const pairs = new Map<string, number>();
  for (let i = 0; i + 1 < kept.length; i++) {
    const a = kept[i];
    const b = kept[i + 1];
    if (a !== undefined && b !== undefined && a !== b) pairs.set(`${a} ${b}`, (pairs.get(`${a} ${b}`) ?? 0) + 1);
  }
  const repeated = [...pairs.entries()]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_SIMILAR_BIGRAMS);
  for (const [pair, n] of repeated) out.push({ text: pair, weight: Math.min(10, n) });
  return out;
}

function isSalient(word: string): boolean {
  if ([...word].length < 2) return false;
  if (/^\p{N}+$/u.test(word)) return false;
  return !STOP_WORDS.has(word);
}

/** English function words and words common to every abstract. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all almost also although always am among an and another any are aren
  around as at be because been before being below between both but by can cannot could did do does doing done
  down during each either else etc even ever every few for from further had has have having he her here hers
  herself him himself his how however i if in into is isn it its itself just least less let like made make many
  may me might more most mostly much must my myself neither no nor not now of off often on once one only onto or
  other others otherwise our ours ourselves out over own per perhaps quite rather same several shall she should
  since so some such than that the their theirs them themselves then there therefore these they this those
  though through thus to too toward towards under until up upon us use used using very via was we well were what
  whatever when where whether which while who whom whose why will with within without would yet you your yours
  yourself yourselves
  abstract background conclusion conclusions method methods objective objectives purpose result results study
  studies paper article show shows shown found present presented report reported also based new two three`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);
