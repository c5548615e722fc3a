/**
 * Patent ids as the hosted service writes them: `<jurisdiction>-<number>-<kind>`, the number
 * without the zeros and separators offices pad it with. USPTO XML writes a grant's number as
 * `11617522`, `06857133`, `D0967598`, `RE049257`, `PP034694` and a cited application as
 * `2014/0194229`; PatentsView writes `6857133`, `D967598`, `RE49257`. Both become one id, so
 * a patent imported from either source and the citations of it agree.
 */

/**
 * A patent number without padding: letters kept (`D`, `RE`, `PP`, `H`, `T`), separators
 * (`/`, `,`, spaces) dropped, leading zeros of the digits dropped.
 *
 * @example bareNumber('D0967598') // 'D967598'
 * @example bareNumber('2014/0194229') // '20140194229'
 */
export function bareNumber(number: string): string {
  const compact = number.replace(/[\s/,.-]/g, '').toUpperCase();
  const m = /^([A-Z]*)0*(\d+)$/.exec(compact);
  return m === null ? compact : `${m[1]}${m[2]}`;
}

/**
 * The id of a patent document, or undefined without a number or a kind.
 *
 * @example patentId('US', '06857133', 'B2') // 'US-6857133-B2'
 */
export function patentId(
  country: string | undefined,
  number: string | undefined,
  kind: string | undefined,
): string | undefined {
  const c = country?.trim().toUpperCase();
  const n = number === undefined ? '' : bareNumber(number);
  const k = kind?.trim().toUpperCase();
  if (c === undefined || c === '' || n === '' || k === undefined || k === '') return undefined;
  return `${c}-${n}-${k}`;
}
