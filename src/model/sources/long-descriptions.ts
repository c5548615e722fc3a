/**
 * `long_description`s that several sources' fields share (each source declares its own in
 * its module: `SourceDeclaration.longDescriptions`).
 */

/** `concepts_scores` of publications and grants. */
export const CONCEPTS_SCORES = 'Returned objects contain: `concept` and `relevance` (0 to 1), most relevant first.';
