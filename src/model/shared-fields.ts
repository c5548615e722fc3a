/**
 * Fields and descriptions several sources share: the category fields of publications and
 * grants, and the `long_description` of their `concepts_scores`.
 */
import type { FieldRow } from './field-table.ts';

/** The classification fields publications and grants share (the `categories` fieldset). */
export const CATEGORY_FIELDS = [
  ['category_bra', 'categories', 'fcm', 'Broad Research Areas.'],
  ['category_for', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
  ['category_hra', 'categories', 'fcm', 'Health Research Areas.'],
  ['category_hrcs_hc', 'categories', 'fcm', 'HRCS Health Categories.'],
  ['category_hrcs_rac', 'categories', 'fcm', 'HRCS Research Activity Codes.'],
  ['category_icrp_cso', 'categories', 'fcm', 'ICRP Common Scientific Outline categories.'],
  ['category_icrp_ct', 'categories', 'fcm', 'ICRP Cancer Types.'],
  ['category_rcdc', 'categories', 'fcm', 'Research, Condition, and Disease Categorization.'],
  ['category_sdg', 'categories', 'fcm', 'Sustainable Development Goals.'],
  ['category_uoa', 'categories', 'fcm', 'Units of Assessment.'],
] as const satisfies readonly FieldRow[];

export const CATEGORY_FIELD_NAMES: readonly string[] = CATEGORY_FIELDS.map(([name]) => name);

/** The `long_description` of `concepts_scores` (publications and grants). */
export const CONCEPTS_SCORES = 'Returned objects contain: `concept` and `relevance` (0 to 1), most relevant first.';
