/**
 * NIH project numbers as registries write them, normalised to the form Quarry keys NIH
 * grants by (`nih.<full project number>`, `data/import/formats/nih.ts`). A full project
 * number is application type, activity code, institute, serial, support year and suffix
 * (`5R01AI130470-05`, `3R01AI130470-05S1`); ClinicalTrials.gov often gives only the core
 * (`R44MH136888`) or the type and core (`2R44DA047150`), which name a project across its
 * years: no single grant record, so those have no key (LAYOUT.md says how a linker can
 * expand them to the project's grants).
 */

export interface NihProjectNumber {
  /** Activity code, institute and six-digit serial: `R01AI130470`. */
  readonly core: string;
  /** The full project number when the text gives type and support year: `5R01AI130470-05`. */
  readonly full?: string;
}

/**
 * Type digit, activity code (letter + two letters or digits: R01, UG3, K23), institute (two
 * letters), serial (up to six digits), then `-` support year (two digits) and a suffix (A1,
 * S1, X1). Spaces and hyphens between the parts are common in registries and ignored.
 */
const PROJECT = /^(\d)?([A-Z][A-Z0-9]{2})([A-Z]{2})(\d{1,6})(?:(\d{2})([A-Z]\d{1,2})?)?$/;

/**
 * The parts of an NIH project number, or undefined for text that is not one.
 *
 * @example
 *   nihProjectNumber('1R44AT011593-01')  // { core: 'R44AT011593', full: '1R44AT011593-01' }
 *   nihProjectNumber('R01 CA-12345')      // { core: 'R01CA012345' }
 *   nihProjectNumber('NCI-2011-01234')    // undefined
 */
export function nihProjectNumber(text: string): NihProjectNumber | undefined {
  const compact = text.toUpperCase().trim();
  // The support year is the two digits after the last hyphen; other hyphens and spaces only separate.
  const year = /^(.*\d)-(\d{2}(?:[A-Z]\d{1,2})?)$/.exec(compact);
  const body = (year === null ? compact : (year[1] as string)).replace(/[\s-]+/g, '');
  const m = PROJECT.exec(year === null ? body : `${body}${year[2] as string}`);
  if (m === null) return undefined;
  const [, type, activity = '', institute = '', serial = '', supportYear, suffix] = m;
  // Without a support year the serial may not run into digits the year would have taken.
  if (year === null && supportYear !== undefined) return undefined;
  const core = `${activity}${institute}${serial.padStart(6, '0')}`;
  if (type === undefined || supportYear === undefined) return { core };
  return { core, full: `${type}${core}-${supportYear}${suffix ?? ''}` };
}

/** The Quarry id of the NIH grant a project number names, when it is a full one. */
export function nihGrantId(text: string): string | undefined {
  const full = nihProjectNumber(text)?.full;
  return full === undefined ? undefined : `nih.${full}`;
}
