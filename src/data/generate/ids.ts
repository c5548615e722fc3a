/**
 * Identifier formats of generated records (spec/generator.md): real shapes, ranges that real
 * records do not use.
 */

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** `pub.19` + 8 digits. */
export function publicationId(index: number): string {
  return `pub.19${pad(index + 1, 8)}`;
}

/** The 10 digits of a publication id, used in its DOI. */
export function publicationDigits(index: number): string {
  return `19${pad(index + 1, 8)}`;
}

/** `10.99999/syn.<publication digits>` (prefix 10.99999 is not in real use). */
export function publicationDoi(index: number): string {
  return `10.99999/syn.${publicationDigits(index)}`;
}

/** `ur.0` + 9 digits + `.` + 2 check digits (the number mod 97). */
export function researcherId(index: number): string {
  const n = index + 1;
  return `ur.0${pad(n, 9)}.${pad(n % 97, 2)}`;
}

/** `grid.` + 6 digits from 900000 + `.` + a hex check character. */
export function organizationId(index: number): string {
  const base = 900000 + index;
  let sum = 0;
  for (const d of String(base)) sum = sum * 7 + Number(d);
  return `grid.${base}.${(sum % 16).toString(16)}`;
}

/** `grant.9` + 6 digits. */
export function grantId(index: number): string {
  return `grant.9${pad(index, 6)}`;
}

/** `jour.19` + 5 digits. */
export function journalId(index: number): string {
  return `jour.19${pad(index + 1, 5)}`;
}

/** An ORCID-shaped iD in the unissued block 0000-0000-9…, with a valid ISO 7064 check character. */
export function syntheticOrcid(index: number): string {
  const body = `00000000${9}${pad(index, 6)}`;
  let total = 0;
  for (const d of body) total = (total + Number(d)) * 2;
  const result = (12 - (total % 11)) % 11;
  const check = result === 10 ? 'X' : String(result);
  const all = body + check;
  return `${all.slice(0, 4)}-${all.slice(4, 8)}-${all.slice(8, 12)}-${all.slice(12, 16)}`;
}
