/**
 * The classification schemes beside Fields of Research that records carry
 * (spec: the `category_*` fields): health research areas, HRCS health categories and
 * research activity codes, NIH RCDC, ICRP cancer outlines and types, the UN Sustainable
 * Development Goals and the UK REF Units of Assessment. Names are the schemes' published
 * labels; ids follow the forms the hosted service answers with where the schema shows them
 * (`40007` → `7 Affordable and Clean Energy`, `30012` → `B12 Engineering`, `911` → Cancer)
 * and are this deployment's own elsewhere.
 *
 * A record is classified from its FoR division: health schemes for health research, the
 * goals and units its field serves. Every draw comes from a stream of its own (`schemes`),
 * so adding these fields leaves every other field of a record as it was.
 */
import type { CategoryFields, NamedRef } from '../../model/native-records.ts';
import type { Draws } from './prng.ts';

type Scheme = 'bra' | 'hra' | 'hrcs_hc' | 'hrcs_rac' | 'icrp_cso' | 'icrp_ct' | 'rcdc' | 'sdg' | 'uoa';

const refs = (firstId: number, names: readonly string[]): NamedRef[] =>
  names.map((name, k) => ({ id: String(firstId + k), name }));

const SDG = refs(40001, [
  '1 No Poverty',
  '2 Zero Hunger',
  '3 Good Health and Well Being',
  '4 Quality Education',
  '5 Gender Equality',
  '6 Clean Water and Sanitation',
  '7 Affordable and Clean Energy',
  '8 Decent Work and Economic Growth',
  '9 Industry, Innovation and Infrastructure',
  '10 Reduced Inequalities',
  '11 Sustainable Cities and Communities',
  '12 Responsible Consumption and Production',
  '13 Climate Action',
  '14 Life Below Water',
  '15 Life on Land',
  '16 Peace, Justice and Strong Institutions',
  '17 Partnerships for the Goals',
]);

const UOA = refs(30001, [
  'A01 Clinical Medicine',
  'A02 Public Health, Health Services and Primary Care',
  'A03 Allied Health Professions, Dentistry, Nursing and Pharmacy',
  'A04 Psychology, Psychiatry and Neuroscience',
  'A05 Biological Sciences',
  'A06 Agriculture, Food and Veterinary Sciences',
  'B07 Earth Systems and Environmental Sciences',
  'B08 Chemistry',
  'B09 Physics',
  'B10 Mathematical Sciences',
  'B11 Computer Science and Informatics',
  'B12 Engineering',
  'C13 Architecture, Built Environment and Planning',
  'C14 Geography and Environmental Studies',
  'C15 Archaeology',
  'C16 Economics and Econometrics',
  'C17 Business and Management Studies',
  'C18 Law',
  'C19 Politics and International Studies',
  'C20 Social Work and Social Policy',
  'C21 Sociology',
  'C22 Anthropology and Development Studies',
  'C23 Education',
  'C24 Sport and Exercise Sciences, Leisure and Tourism',
  'D25 Area Studies',
  'D26 Modern Languages and Linguistics',
  'D27 English Language and Literature',
  'D28 History',
  'D29 Classics',
  'D30 Philosophy',
  'D31 Theology and Religious Studies',
  'D32 Art and Design: History, Practice and Theory',
  'D33 Music, Drama, Dance, Performing Arts, Film and Screen Studies',
  'D34 Communication, Cultural and Media Studies, Library and Information Management',
]);

const HRA = refs(3900, ['Biomedical', 'Clinical', 'Health Services and Systems', 'Public Health']);
const BRA = refs(4000, [
  'Basic Science',
  'Clinical Medicine and Science',
  'Health Services and Systems',
  'Public Health',
]);

const HRCS_HC = refs(893, [
  'Blood',
  'Cardiovascular',
  'Congenital',
  'Ear',
  'Eye',
  'Infection',
  'Inflammatory and Immune System',
  'Injuries and Accidents',
  'Mental Health',
  'Metabolic and Endocrine',
  'Musculoskeletal',
  'Neurological',
  'Oral and Gastrointestinal',
  'Renal and Urogenital',
  'Reproductive Health and Childbirth',
  'Respiratory',
  'Skin',
  'Stroke',
  'Cancer',
  'Generic Health Relevance',
  'Disputed Aetiology and Other',
]);
const CANCER_HC = '911';

/** HRCS research activity groups and their codes: `10201` is group 2, code 1. */
const HRCS_RAC_GROUPS: readonly (readonly string[])[] = [
  [
    'Normal biological development and functioning',
    'Psychological and socioeconomic processes',
    'Chemical and physical sciences',
    'Methodologies and measurements',
    'Resources and infrastructure (underpinning)',
  ],
  [
    'Biological and endogenous factors',
    'Factors relating to physical environment',
    'Psychological, social and economic factors',
    'Surveillance and distribution',
    'Research design and methodologies (aetiology)',
    'Resources and infrastructure (aetiology)',
  ],
  [
    'Primary prevention interventions to modify behaviours or promote wellbeing',
    'Interventions to alter physical and biological environmental risks',
    'Nutrition and chemoprevention',
    'Vaccines',
    'Resources and infrastructure (prevention)',
  ],
  [
    'Discovery and preclinical testing of markers and technologies',
    'Evaluation of markers and technologies',
    'Influences and impact',
    'Population screening',
    'Resources and infrastructure (detection)',
  ],
  [
    'Pharmaceuticals',
    'Cellular and gene therapies',
    'Medical devices',
    'Surgery',
    'Radiotherapy',
    'Psychological and behavioural',
    'Physical',
    'Complementary',
    'Resources and infrastructure (development of treatments)',
  ],
  [
    'Pharmaceuticals',
    'Cellular and gene therapies',
    'Medical devices',
    'Surgery',
    'Radiotherapy',
    'Psychological and behavioural',
    'Physical',
    'Complementary',
    'Resources and infrastructure (evaluation of treatments)',
  ],
  [
    'Individual care needs',
    'End of life care',
    'Management and decision making',
    'Resources and infrastructure (disease management)',
  ],
  [
    'Organisation and delivery of services',
    'Health and welfare economics',
    'Policy, ethics and research governance',
    'Research design and methodologies (health services)',
    'Resources and infrastructure (health services)',
  ],
];
const HRCS_RAC: readonly NamedRef[] = HRCS_RAC_GROUPS.flatMap((codes, g) =>
  codes.map((label, k) => ({
    id: String(10000 + (g + 1) * 100 + k + 1),
    name: `${g + 1}.${k + 1} ${label}`,
  })),
);

const RCDC = refs(500, [
  'Aging',
  "Alzheimer's Disease",
  'Behavioral and Social Science',
  'Bioengineering',
  'Biomedical Imaging',
  'Biotechnology',
  'Brain Disorders',
  'Cancer',
  'Cardiovascular',
  'Clinical Research',
  'Clinical Trials and Supportive Activities',
  'Dementia',
  'Diabetes',
  'Digestive Diseases',
  'Emerging Infectious Diseases',
  'Genetics',
  'Health Services',
  'Heart Disease',
  'HIV/AIDS',
  'Immunization',
  'Infectious Diseases',
  'Kidney Disease',
  'Lung',
  'Machine Learning and Artificial Intelligence',
  'Mental Health',
  'Minority Health',
  'Networking and Information Technology R&D (NITRD)',
  'Neurosciences',
  'Nutrition',
  'Obesity',
  'Pediatric',
  'Precision Medicine',
  'Prevention',
  'Rare Diseases',
  'Regenerative Medicine',
  'Stem Cell Research',
  'Stroke',
  'Substance Misuse',
  'Vaccine Related',
  "Women's Health",
]);
const CANCER_RCDC = RCDC.find((c) => c.name === 'Cancer') as NamedRef;

const ICRP_CSO_GROUPS: readonly (readonly string[])[] = [
  [
    'Normal Functioning',
    'Cancer Initiation: Alterations in Chromosomes',
    'Cancer Initiation: Oncogenes and Tumor Suppressor Genes',
    'Cancer Progression and Metastasis',
    'Resources and Infrastructure',
  ],
  [
    'Exogenous Factors in the Origin and Cause of Cancer',
    'Endogenous Factors in the Origin and Cause of Cancer',
    'Interactions of Genes and Genetic Polymorphisms with Exogenous and Endogenous Factors',
    'Resources and Infrastructure Related to Etiology',
  ],
  [
    'Interventions to Prevent Cancer: Personal Behaviors That Affect Cancer Risk',
    'Nutritional Science in Cancer Prevention',
    'Chemoprevention',
    'Vaccines',
    'Complementary and Alternative Prevention Approaches',
    'Resources and Infrastructure Related to Prevention',
  ],
  [
    'Technology Development and/or Marker Discovery',
    'Technology and/or Marker Evaluation With Respect to Fundamental Parameters of Method',
    'Technology and/or Marker Testing in a Clinical Setting',
    'Resources and Infrastructure Related to Detection, Diagnosis or Prognosis',
  ],
  [
    'Localized Therapies - Discovery and Development',
    'Localized Therapies - Clinical Applications',
    'Systemic Therapies - Discovery and Development',
    'Systemic Therapies - Clinical Applications',
    'Combinations of Localized and Systemic Therapies',
    'Complementary and Alternative Treatment Approaches',
    'Resources and Infrastructure Related to Treatment',
  ],
  [
    'Patient Care and Survivorship Issues',
    'Surveillance',
    'Behavior Related to Cancer Control',
    'Cost Analyses and Health Care Delivery',
    'Education and Communication',
    'End-of-Life Care',
    'Ethics and Confidentiality in Cancer Research',
    'Complementary and Alternative Approaches for Supportive Care',
    'Resources and Infrastructure Related to Cancer Control',
  ],
  [
    'Development and Characterization of Model Systems',
    'Application of Model Systems',
    'Resources and Infrastructure Related to Scientific Model Systems',
  ],
];
const ICRP_CSO: readonly NamedRef[] = ICRP_CSO_GROUPS.flatMap((codes, g) =>
  codes.map((label, k) => ({ id: String(6000 + (g + 1) * 100 + k + 1), name: `${g + 1}.${k + 1} ${label}` })),
);

const ICRP_CT = refs(6901, [
  'Bladder Cancer',
  'Bone Cancer',
  'Brain Tumour',
  'Breast Cancer',
  'Cervical Cancer',
  'Colon and Rectal Cancer',
  'Head and Neck Cancer',
  'Kidney Cancer',
  'Leukaemia',
  'Liver Cancer',
  'Lung Cancer',
  'Lymphoma',
  'Melanoma',
  'Myeloma',
  'Not Site-Specific Cancer',
  'Oesophageal Cancer',
  'Ovarian Cancer',
  'Pancreatic Cancer',
  'Prostate Cancer',
  'Sarcoma',
  'Stomach Cancer',
  'Thyroid Cancer',
  'Uterine Cancer',
]);

/** Every scheme's categories, as category records for the `categories` kind. */
export const SCHEME_CATEGORIES: readonly { id: string; name: string; scheme: Scheme }[] = (
  [
    ['bra', BRA],
    ['hra', HRA],
    ['hrcs_hc', HRCS_HC],
    ['hrcs_rac', HRCS_RAC],
    ['icrp_cso', ICRP_CSO],
    ['icrp_ct', ICRP_CT],
    ['rcdc', RCDC],
    ['sdg', SDG],
    ['uoa', UOA],
  ] as const
).flatMap(([scheme, list]) => list.map((ref) => ({ id: ref.id, name: ref.name, scheme })));

/**
 * Per FoR division: how much of it is health research (the share classified by the health
 * schemes), its usual health research areas (HRA, same order as BRA), the goals it serves
 * and its units of assessment.
 */
interface DivisionProfile {
  readonly health: number;
  readonly areas: readonly number[];
  readonly sdg: readonly NamedRef[];
  readonly uoa: readonly NamedRef[];
}

const profile = (health: number, areas: number[], sdg: number[], uoa: string[]): DivisionProfile => ({
  health,
  areas,
  sdg: sdg.map((goal) => SDG[goal - 1] as NamedRef),
  uoa: uoa.map((code) => UOA.find((unit) => unit.name.startsWith(`${code} `)) as NamedRef),
});

const PROFILES: Readonly<Record<string, DivisionProfile>> = {
  '30': profile(0.05, [0], [2, 15], ['A06']),
  '31': profile(0.45, [0], [3, 14, 15], ['A05']),
  '32': profile(0.95, [0, 1], [3], ['A01', 'A04', 'A03']),
  '33': profile(0, [], [11, 9], ['C13']),
  '34': profile(0.1, [0], [7, 12, 6], ['B08']),
  '35': profile(0, [], [8, 9, 12], ['C17']),
  '36': profile(0, [], [11], ['D32', 'D33']),
  '37': profile(0.02, [], [13, 14, 15, 6], ['B07']),
  '38': profile(0.02, [], [8, 1, 10], ['C16']),
  '39': profile(0.02, [], [4], ['C23']),
  '40': profile(0.08, [0], [7, 9, 6, 11], ['B12']),
  '41': profile(0.05, [3], [13, 15, 6, 14], ['C14', 'B07']),
  '42': profile(0.95, [1, 2, 3], [3, 5], ['A02', 'A03', 'C24']),
  '43': profile(0, [], [16], ['D28', 'C15']),
  '44': profile(0.1, [3], [10, 16, 5, 1], ['C20', 'C21', 'C19', 'C22']),
  '46': profile(0.05, [0], [9, 4], ['B11']),
  '47': profile(0, [], [4], ['D26', 'D27']),
  '48': profile(0, [], [16], ['C18']),
  '49': profile(0, [], [9], ['B10']),
  '50': profile(0, [], [16], ['D30', 'D31']),
  '51': profile(0.02, [0], [7], ['B09']),
  '52': profile(0.6, [1, 3], [3, 4], ['A04']),
};

/** Which schemes a kind of record carries (patents and trials have no goals or units). */
export interface SchemeChoice {
  readonly sdg: boolean;
  readonly uoa: boolean;
}

/**
 * The category fields beside `category_for` of a record of FoR division `division`, drawn
 * from `r` (a stream of the record's own). Fields a record does not get are left out.
 */
export function classifyBeyondFor(
  division: string,
  r: Draws,
  choice: SchemeChoice = { sdg: true, uoa: true },
): CategoryFields {
  const p = PROFILES[division];
  if (p === undefined) return {};
  const out: Record<string, NamedRef[]> = {};
  if (p.health > 0 && r.chance(p.health)) {
    const area = p.areas.length > 0 ? (p.areas[r.int(0, p.areas.length - 1)] as number) : 0;
    out['category_hra'] = [HRA[area] as NamedRef];
    out['category_bra'] = [BRA[area] as NamedRef];
    const hc = distinct(r, HRCS_HC, r.chance(0.7) ? 1 : 2);
    out['category_hrcs_hc'] = hc;
    out['category_hrcs_rac'] = distinct(r, HRCS_RAC, r.chance(0.6) ? 1 : 2);
    const rcdc = distinct(r, RCDC, r.int(2, 5));
    const cancer = hc.some((c) => c.id === CANCER_HC) || rcdc.some((c) => c.id === CANCER_RCDC.id);
    if (cancer) {
      if (!rcdc.some((c) => c.id === CANCER_RCDC.id)) rcdc.push(CANCER_RCDC);
      out['category_icrp_cso'] = distinct(r, ICRP_CSO, r.chance(0.7) ? 1 : 2);
      out['category_icrp_ct'] = distinct(r, ICRP_CT, 1);
    }
    out['category_rcdc'] = rcdc.sort((a, b) => a.name.localeCompare(b.name));
  }
  if (choice.sdg && p.sdg.length > 0 && r.chance(0.3)) out['category_sdg'] = [r.pick(p.sdg)];
  if (choice.uoa && p.uoa.length > 0 && r.chance(0.85)) out['category_uoa'] = [r.pick(p.uoa)];
  return out;
}

/** `count` distinct categories of `list`, in list order. */
function distinct(r: Draws, list: readonly NamedRef[], count: number): NamedRef[] {
  const picked = new Set<NamedRef>();
  while (picked.size < Math.min(count, list.length)) picked.add(r.pick(list));
  return list.filter((ref) => picked.has(ref));
}

/** The names of a scheme's categories, for tests and docs: `namesOf('sdg')`. */
export function namesOf(scheme: Scheme): readonly string[] {
  return SCHEME_CATEGORIES.filter((c) => c.scheme === scheme).map((c) => c.name);
}
