/**
 * How full text is cut into words, the same for every back end: letters and digits make
 * words, case and diacritics are folded away, everything else separates words (SQLite's
 * FTS5 `unicode61 remove_diacritics 2`). PostgreSQL gets its text already cut this way, so
 * its parser sees plain words and never its own token kinds (hosts, e-mails, signed numbers),
 * and a word means the same in both engines.
 */

/** Lower case without diacritics, as the unicode61 tokenizer stores tokens. */
export function foldForIndex(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The words of a text for the index.
 *
 * @example indexWords('COVID-19 in São Paulo') // ['covid', '19', 'in', 'sao', 'paulo']
 */
export function indexWords(text: string): string[] {
  return foldForIndex(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}
