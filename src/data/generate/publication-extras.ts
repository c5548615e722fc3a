/**
 * The fields of a publication that follow from what `makePublication` drew: its print and
 * online dates and the day it entered the index, the full-text link, the journal title as
 * printed, MeSH terms of biomedical papers, book series, subtitles and the published
 * version of a preprint. Their draws come from a stream of their own (`extras`), so adding
 * them changed no other field of a record.
 */
import type { Context } from './context.ts';
import { publicationDoi, publicationDigits } from './ids.ts';
import { insertedDate, plusDays } from './inserted-date.ts';

/** MeSH headings common on PubMed records (check tags first, then topical headings). */
const MESH_CHECK_TAGS = ['Humans', 'Animals', 'Female', 'Male', 'Adult', 'Middle Aged', 'Aged', 'Mice'];
const MESH_TOPICAL = [
  'Risk Factors',
  'Cohort Studies',
  'Retrospective Studies',
  'Prospective Studies',
  'Treatment Outcome',
  'Cross-Sectional Studies',
  'Signal Transduction',
  'Gene Expression Regulation',
  'Cell Line, Tumor',
  'Neoplasms',
  'Inflammation',
  'Biomarkers',
  'Brain',
  'Diabetes Mellitus, Type 2',
  'Obesity',
  'Hypertension',
  'Depression',
  'Quality of Life',
  'Prognosis',
  'Mutation',
  'Apoptosis',
  'Oxidative Stress',
  'Immunotherapy',
  'Drug Resistance',
  'Magnetic Resonance Imaging',
  'Surveys and Questionnaires',
  'Pregnancy',
  'Infant',
  'Child',
  'Adolescent',
  'Young Adult',
  'COVID-19',
  'SARS-CoV-2',
  'Machine Learning',
  'Microbiota',
  'Stem Cells',
  'Neurons',
  'Mice, Inbred C57BL',
  'Rats',
  'Disease Models, Animal',
];

const SUBTITLES = [
  'Theory and Practice',
  'Methods and Applications',
  'A Review',
  'Challenges and Opportunities',
  'Recent Advances',
  'An Introduction',
  'Perspectives from Practice',
  'Evidence and Implications',
];

const SERIES = ['Lecture Notes in', 'Advances in', 'Studies in', 'Springer Briefs in', 'Handbook Series in'];

/** What the extras read from a publication already made. */
export interface PublicationFacts {
  readonly index: number;
  readonly type: string;
  readonly date: string;
  readonly year: number;
  /** The division's name without its code: `Engineering`. */
  readonly fieldName: string;
  readonly journalTitle?: string;
  readonly biomedical: boolean;
  readonly openAccess: boolean;
}

/** The extra fields of a publication, drawn from its own `extras` stream. */
export function publicationExtras(ctx: Context, facts: PublicationFacts): Record<string, unknown> {
  const r = ctx.random.draws('publication', facts.index, 'extras');
  const out: Record<string, unknown> = { date_inserted: insertedDate(r, facts.date, facts.year) };
  out['linkout'] = facts.openAccess
    ? `https://repository.example.org/fulltext/${publicationDigits(facts.index)}.pdf`
    : `https://doi.org/${publicationDoi(facts.index)}`;
  if (facts.type === 'article') {
    out['date_print'] = facts.date;
    if (facts.year >= 2000) out['date_online'] = plusDays(facts.date, -r.int(7, 120));
    if (facts.journalTitle !== undefined)
      out['journal_title_raw'] = r.chance(0.2) ? facts.journalTitle.toUpperCase() : facts.journalTitle;
  } else if (facts.year >= 2000) {
    out['date_online'] = facts.date;
  }
  if (facts.biomedical) {
    const tags = MESH_CHECK_TAGS.filter(() => r.chance(0.35));
    const topical = new Set<string>();
    const want = r.int(2, 6);
    while (topical.size < want) topical.add(r.pick(MESH_TOPICAL));
    out['mesh_terms'] = [...tags, ...[...topical].sort()];
  }
  if (facts.type === 'chapter' || facts.type === 'book' || facts.type === 'monograph') {
    if (r.chance(0.4)) out['book_series_title'] = `${r.pick(SERIES)} ${facts.fieldName}`;
    if (facts.type === 'chapter') out['book_doi'] = `10.99999/book.${publicationDigits(facts.index)}`;
  }
  if (r.chance(facts.type === 'book' || facts.type === 'monograph' ? 0.5 : 0.04))
    out['subtitles'] = [r.pick(SUBTITLES)];
  // About a third of preprints have a published version, a later record of the corpus.
  if (facts.type === 'preprint' && r.chance(0.35) && facts.index + 1 < ctx.plan.publications) {
    const later = Math.min(ctx.plan.publications - 1, facts.index + r.int(1, 2000));
    out['resulting_publication_doi'] = publicationDoi(later);
  }
  return out;
}
