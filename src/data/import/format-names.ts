/**
 * The names of the import formats, apart from their readers, so that the command line can
 * list them without loading the readers (and the zip reader they use).
 */
export const IMPORT_FORMATS = ['quarry', 'openalex', 'ror', 'crossref', 'nih', 'anzsrc'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
