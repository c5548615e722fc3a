/**
 * How the files of source titles' import formats are recognised (the formats are named in
 * `model.ts`, and recognition and readers go together in `data.ts`), each a title list
 * published as CSV and recognised by its header (docs/operations.md describes them):
 *
 * - `doaj`: DOAJ's journal CSV (`Journal title`, `URL in DOAJ`, the print and online ISSNs, ...);
 * - `crossref-titles`: Crossref's title list `titleFile.csv` (`JournalTitle`, `JournalID`, `pissn`, `eissn`, ...);
 * - `title-metrics`: the SJR and SNIP a user supplies, `issn,year,sjr,snip` (no open source has them).
 *
 * The OpenAlex snapshot's `sources/` partitions are read by the OpenAlex format, as its other
 * entities are.
 */
import { parseCsvLine } from '../../data/csv.ts';
import type { FileProbe, FormatRecognition } from '../../data/import/record-source.ts';

/** The columns of a CSV probe's header, compared lower case. */
function headerOf(probe: FileProbe): ReadonlySet<string> | undefined {
  if (!/\.csv(\.gz)?$/.test(probe.name)) return undefined;
  return new Set(
    parseCsvLine(probe.first).map((c) =>
      c
        .replace(/^\uFEFF/, '')
        .trim()
        .toLowerCase(),
    ),
  );
}

const has = (probe: FileProbe, columns: readonly string[]): boolean => {
  const header = headerOf(probe);
  return header !== undefined && columns.every((c) => header.has(c));
};

export const doajFormat: FormatRecognition = {
  detect: (probe) => has(probe, ['journal title', 'url in doaj']),
};

export const crossrefTitlesFormat: FormatRecognition = {
  detect: (probe) => has(probe, ['journaltitle', 'journalid']),
};

export const titleMetricsFormat: FormatRecognition = {
  detect: (probe) => {
    const header = headerOf(probe);
    return header !== undefined && header.has('issn') && (header.has('sjr') || header.has('snip'));
  },
};
