/**
 * `classify(title="…", abstract="…", system="FOR")`: the categories of a classification
 * system a title and abstract belong to, with scores in [0, 1], best first, in the hosted
 * service's shape `{"FOR": [{"id": "2211", "name": "11 Medical and Health Sciences"}, ...]}`
 * (each category also carries its `score`). The classifier is learned from the publications
 * this deployment holds that carry the system's `category_*` field (naive Bayes over title and
 * abstract words, src/analytics/classify/), trained at first use and again after an import.
 */
import { SystemTrainer, type Classifier } from '../analytics/classify/hierarchy.ts';
import type { Category } from '../analytics/classify/naive-bayes.ts';
import type { FunctionCall } from '../dsl/ast.ts';
import { readTextArguments } from './text-arguments.ts';
import type { ArgumentFailure, FunctionContext, StatementFunction, StatementParameter } from './types.ts';

/** The systems `classify` knows (the hosted service's acronyms) and the field of records that carries each. */
export const CLASSIFICATION_SYSTEMS = {
  FOR: 'category_for',
  RCDC: 'category_rcdc',
  HRCS_HC: 'category_hrcs_hc',
  HRCS_RAC: 'category_hrcs_rac',
  HRA: 'category_hra',
  BRA: 'category_bra',
  ICRP_CSO: 'category_icrp_cso',
  ICRP_CT: 'category_icrp_ct',
  UOA: 'category_uoa',
  SDG: 'category_sdg',
} as const;

export type ClassificationSystem = keyof typeof CLASSIFICATION_SYSTEMS;

/** Records a classifier is trained on at most (a uniform sample of those carrying the system). */
export const TRAINING_SAMPLE = 50_000;

export interface ClassifyArgs {
  readonly title: string;
  readonly abstract: string;
  readonly system: ClassificationSystem;
}

const PARAMETERS: readonly StatementParameter[] = [
  { name: 'title', type: 'string', required: false, description: 'The title of the text to classify.' },
  { name: 'abstract', type: 'string', required: false, description: 'Its abstract.' },
  {
    name: 'system',
    type: 'string',
    required: true,
    description: `The classification system: ${Object.keys(CLASSIFICATION_SYSTEMS).join(', ')}.`,
  },
];

function isSystem(name: string): name is ClassificationSystem {
  return Object.hasOwn(CLASSIFICATION_SYSTEMS, name);
}

function categoriesOf(value: unknown): Category[] {
  if (!Array.isArray(value)) return [];
  const out: Category[] = [];
  for (const c of value as unknown[])
    if (typeof c === 'object' && c !== null) {
      const { id, name } = c as { id?: unknown; name?: unknown };
      if (typeof id === 'string' && typeof name === 'string') out.push({ id, name });
    }
  return out;
}

/** The text the classifier reads of a title and an abstract. */
export function classifiedText(title: string, abstract: string): string {
  return [title.trim(), abstract.trim()].filter((s) => s !== '').join('. ');
}

/** Trains the classifier of one system from the publications that carry it. */
export async function trainClassifier(context: FunctionContext, system: ClassificationSystem): Promise<Classifier> {
  const field = CLASSIFICATION_SYSTEMS[system];
  const trainer = new SystemTrainer({ maxRecords: TRAINING_SAMPLE });
  for await (const batch of context.readAll('publications', ['title', 'abstract', field])) {
    context.signal?.throwIfAborted();
    for (const r of batch) {
      const categories = categoriesOf(r[field]);
      if (categories.length === 0) continue;
      const title = typeof r['title'] === 'string' ? r['title'] : '';
      const abstract = typeof r['abstract'] === 'string' ? r['abstract'] : '';
      trainer.offer(classifiedText(title, abstract), categories);
    }
  }
  return trainer.train();
}

export const classifyFunction: StatementFunction<ClassifyArgs> = {
  name: 'classify',
  description:
    'The categories of a classification system a title and abstract belong to, best first, with scores in [0, 1], ' +
    "learned from this deployment's publications that carry the system.",
  parameters: PARAMETERS,
  reads: ['publications'],

  check(call: FunctionCall, fail: ArgumentFailure): ClassifyArgs {
    const { strings } = readTextArguments(call, PARAMETERS, fail);
    const system = strings.get('system');
    if (system === undefined) return fail('classify needs the argument system.', call.span);
    const wanted = system.value.trim().toUpperCase();
    if (!isSystem(wanted))
      fail(
        `Unknown classification system '${system.value}'. Available systems: ${Object.keys(CLASSIFICATION_SYSTEMS).join(', ')}.`,
        system.span,
      );
    const title = strings.get('title')?.value ?? '';
    const abstract = strings.get('abstract')?.value ?? '';
    if (title.trim() === '' && abstract.trim() === '')
      fail('classify needs a title or an abstract to classify (title="…", abstract="…").', call.span);
    return { title, abstract, system: wanted };
  },

  async run(args: ClassifyArgs, context: FunctionContext) {
    const model = await context.derived(`classify:${args.system}`, () => trainClassifier(context, args.system));
    const categories = model.classify(classifiedText(args.title, args.abstract));
    return { [args.system]: categories.map(({ id, name, score }) => ({ id, name, score })) };
  },
};
