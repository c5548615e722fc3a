/**
 * Publications for the tests of `classify` and `extract_concepts`: a few written here for
 * three Fields of Research divisions (each record a division and one of its groups, with its
 * concepts), and 40 real OpenAlex works (CC0; title, abstract cut to 1,500 characters,
 * OpenAlex concepts, first topic's field and domain) copied from ../shared/data/openalex into
 * test/fixtures/analytics/openalex-works.jsonl.
 */
import { readFileSync } from 'node:fs';

interface Field {
  readonly division: readonly [string, string];
  readonly groups: readonly (readonly [string, string])[];
  /** Phrases of the field: the first half are the first group's, the second half the other's. */
  readonly phrases: readonly string[];
}

export const FIELDS: readonly Field[] = [
  {
    division: ['46', '46 Information and Computing Sciences'],
    groups: [
      ['4611', '4611 Machine learning'],
      ['4606', '4606 Distributed computing and systems software'],
    ],
    phrases: [
      'deep learning',
      'neural networks',
      'gradient descent',
      'training data',
      'classification accuracy',
      'distributed systems',
      'computing clusters',
      'message passing',
      'operating system kernels',
      'fault tolerance',
    ],
  },
  {
    division: ['32', '32 Biomedical and Clinical Sciences'],
    groups: [
      ['3211', '3211 Oncology and carcinogenesis'],
      ['3202', '3202 Clinical sciences'],
    ],
    phrases: [
      'breast cancer',
      'chemotherapy',
      'tumour growth',
      'metastasis',
      'overall survival',
      'randomised controlled trial',
      'hospital patients',
      'blood pressure',
      'clinical outcomes',
      'intensive care',
    ],
  },
  {
    division: ['37', '37 Earth Sciences'],
    groups: [
      ['3709', '3709 Physical geography and environmental geoscience'],
      ['3705', '3705 Geology'],
    ],
    phrases: [
      'river basins',
      'rainfall',
      'soil erosion',
      'groundwater recharge',
      'glacier retreat',
      'sedimentary rocks',
      'tectonic plates',
      'volcanic eruptions',
      'mineral deposits',
      'fault zones',
    ],
  },
];

const FILLER = [
  'We measured %s across several sites and compared it with %s.',
  'The results show that %s depends strongly on %s.',
  'A model of %s explains the observed changes in %s.',
  'Earlier work on %s rarely considered %s.',
];

/** Twelve publications per field, each with a division, one group, concepts and scores. */
export function writtenPublications(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  FIELDS.forEach((field, f) => {
    for (let i = 0; i < 12; i++) {
      const g = i % 2;
      const own = field.phrases.slice(g * 5, g * 5 + 5);
      const pick = (k: number) => own[(i + k) % own.length] as string;
      const other = field.phrases[(i + 7) % field.phrases.length] as string;
      const abstract = FILLER.map((s, k) => s.replace('%s', pick(k)).replace('%s', k === 3 ? other : pick(k + 1))).join(
        ' ',
      );
      const concepts = [pick(0), pick(1), pick(2), other];
      out.push({
        id: `pub.${f}${String(i).padStart(2, '0')}`,
        title: `On ${pick(0)} and ${pick(1)}`,
        abstract,
        concepts,
        concepts_scores: concepts.map((concept, k) => ({ concept, relevance: 0.9 - k * 0.1 })),
        category_for: [
          { id: field.division[0], name: field.division[1] },
          {
            id: (field.groups[g] as readonly [string, string])[0],
            name: (field.groups[g] as readonly [string, string])[1],
          },
        ],
      });
    }
  });
  return out;
}

export interface OpenAlexWork {
  readonly id: string;
  readonly title: string;
  readonly abstract: string;
  readonly concepts: readonly string[];
  readonly field: string;
  readonly domain: string;
}

export function openAlexWorks(): OpenAlexWork[] {
  return readFileSync(new URL('../fixtures/analytics/openalex-works.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as OpenAlexWork);
}
