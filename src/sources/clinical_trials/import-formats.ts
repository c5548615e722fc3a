/**
 * How the files of clinical trials' import format are recognised (named in `model.ts`;
 * recognition and reader go together in `data.ts`): ClinicalTrials.gov API v2 studies in each
 * shape the registry publishes (`import-ctgov-files.ts` reads them):
 *
 * - the bulk download `ctg-studies.json.zip`, recognised by its `NCTnnnnnnnn.json` entries
 *   and read whole, in one pass (its 600,000 entries read one by one would each read the
 *   archive's central directory again);
 * - the API's pages (`{"studies": [...], "nextPageToken"}`, one a file or one a line), JSON
 *   Lines of studies, the website's JSON array of studies, a study alone: recognised by the
 *   opening of the first study (`protocolSection` and its `identificationModule`), on one
 *   line or pretty-printed.
 */
import type { FileProbe, FormatRecognition } from '../../data/import/record-source.ts';

/** A study file of the bulk download: `35/NCT02252835.json`. */
const STUDY_ENTRY = /(?:^|\/)NCT\d{8}\.json$/i;

/** The opening of an API v2 study, wherever the first one starts (a page, an array, a line). */
const STUDY_OPENING = /"protocolSection"\s*:\s*\{\s*"identificationModule"\s*:/;

function detect(probe: FileProbe): boolean {
  if (!/\.jsonl?(\.gz)?$/.test(probe.name) || !/^[[{]/.test(probe.first)) return false;
  const { record } = probe;
  if (record !== undefined) {
    const studies = record['studies'];
    return 'protocolSection' in record || (Array.isArray(studies) && STUDY_OPENING.test(probe.head));
  }
  return STUDY_OPENING.test(probe.head);
}

export const ctgovFormat: FormatRecognition = {
  detect,
  claimZip: (entries) => (entries.some((e) => STUDY_ENTRY.test(e)) ? { whole: true } : undefined),
};
