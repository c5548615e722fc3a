/**
 * How the files of patents' import formats are recognised (the formats are named in
 * `model.ts`, and recognition and readers go together in `data.ts`).
 *
 * - `uspto`: USPTO patent XML, the weekly zips as published (`ipgb20221025_wk43.zip`: its
 *   `.xml` entries, the list and report passed over) or an `.xml` file; recognised by the
 *   root element of its first document (v4 grants and applications, and the 2001-2004
 *   generations, which are refused document by document saying so).
 * - `patentsview`: the PatentsView bulk tables, `g_<table>.tsv` plain, gzip or zipped as
 *   published (`g_patent.tsv.zip`), recognised by name. A patent's rows are spread over the
 *   tables, so every table of one import is read together, as one input (`together`).
 */
import type { FileProbe, FormatRecognition } from '../../data/import/record-source.ts';
import { PATENTSVIEW_TABLES, patentsViewTable } from './patentsview-tables.ts';

/** The root elements of USPTO's patent XML: v4 (2005 on) and the generations before, which are refused saying so. */
const USPTO_ROOT =
  /<(?:!DOCTYPE\s+)?(?:us-patent-grant|us-patent-application|PATDOC|patent-application-publication)[\s>]/;

export const usptoFormat: FormatRecognition = {
  files: /\.xml$/,
  detect: (probe: FileProbe) => /\.xml$/.test(probe.name) && USPTO_ROOT.test(probe.head),
  // XML entries beside no data file another format reads (the week's list and report are text and HTML).
  claimZip: (entries) => {
    const xml = entries.filter((e) => /\.xml$/i.test(e));
    return xml.length > 0 && !entries.some((e) => /\.(jsonl?|csv|tsv)(\.gz)?$/i.test(e)) ? { entries: xml } : undefined;
  },
};

/** A PatentsView table file (`g_patent.tsv`, `g_cpc_current.tsv.gz`), by name. */
const isTable = (name: string): boolean => /\.tsv(\.gz)?$/i.test(name) && patentsViewTable(name) !== undefined;

export const patentsViewFormat: FormatRecognition = {
  // Only the tables it reads: a download folder may hold others (claims, descriptions).
  files: new RegExp(`^(?:${Object.keys(PATENTSVIEW_TABLES).join('|')})\\.tsv(?:\\.gz)?$`),
  detect: (probe: FileProbe) => isTable(probe.name),
  claimZip: (entries) => (entries.length > 0 && entries.every(isTable) ? { entries } : undefined),
  together: true,
};
