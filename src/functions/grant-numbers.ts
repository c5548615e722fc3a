/**
 * Grant numbers as funders and grantees write them, reduced to keys that compare equal
 * whatever the writing: `extract_grants` indexes every held grant's numbers by these keys
 * and looks the caller's number up by the same keys.
 *
 * - The compact key: upper case, with spaces, dashes, dots, slashes, underscores and any
 *   other punctuation dropped (`EP/K012345/1`, `ep-k012345-1` and `EPK0123451` are one key).
 * - The NIH project key: an NIH project number with or without its application type,
 *   activity code and support year (`1R01CA123456-01A1`, `R01 CA123456`, `R01-CA-123456`
 *   and `CA123456` all name project CA123456): institute (two letters) and serial (padded to
 *   six digits). The support year is only recognised after a dash, as NIH writes it.
 */

/** `EP/K012345/1` → `EPK0123451`; empty when nothing of a number is left. */
export function compactKey(text: string): string {
  return text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Type digit, activity code, institute, serial (an activity code may be left out). */
const NIH_BODY = /^(\d)?([A-Z][A-Z0-9]{2})?([A-Z]{2})(\d{4,6})$/;
/** The support year and suffix after the last dash: `-01`, `-01A1`, `-05S1`, `-01A1S1`, `-01M004`. */
const NIH_YEAR = /^(.*\d)\s*-\s*(\d{2}[A-Z0-9]{0,8})$/;

/**
 * The NIH project key (institute and six-digit serial) of a text that reads as an NIH
 * project number, else undefined.
 *
 * @example nihProjectKey('1R01CA123456-01A1') // 'CA123456'
 * @example nihProjectKey('R01 CA 12345') // 'CA012345'
 * @example nihProjectKey('EP/K012345/1') // undefined
 */
export function nihProjectKey(text: string): string | undefined {
  const upper = text.normalize('NFKC').toUpperCase().trim();
  const year = NIH_YEAR.exec(upper);
  const body = (year === null ? upper : (year[1] as string)).replace(/[\s\-./_]+/g, '');
  const m = NIH_BODY.exec(body);
  if (m === null) return undefined;
  const [, , , institute = '', serial = ''] = m;
  return `${institute}${serial.padStart(6, '0')}`;
}

/** Every key a number is indexed and looked up by: `c:` compact, `n:` NIH project. */
export function grantNumberKeys(text: string): { readonly compact?: string; readonly nih?: string } {
  const compact = compactKey(text);
  const nih = nihProjectKey(text);
  return {
    ...(compact === '' ? {} : { compact }),
    ...(nih === undefined ? {} : { nih }),
  };
}

/** A funder's name for comparison: case, accents' width forms, punctuation and spacing folded; a leading "the" dropped. */
export function funderNameKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^the /, '');
}

/**
 * A Crossref Funder Registry id as written (`100000050`, `10.13039/100000050`,
 * `https://doi.org/10.13039/100000050`) → its number; undefined when it is none.
 */
export function fundrefKey(text: string): string | undefined {
  const m = /(?:10\.13039\/)?(\d{6,12})\s*$/.exec(text.trim());
  return m === null ? undefined : m[1];
}
