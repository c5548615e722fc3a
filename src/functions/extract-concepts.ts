/**
 * `extract_concepts("text", return_scores=true)`: the key concepts of a text, most relevant
 * first, in the hosted service's shape: `{"extracted_concepts": ["graphene", ...]}`, or with
 * `return_scores=true` `{"extracted_concepts": [{"concept": "graphene", "relevance": 0.81}, ...]}`.
 * Concepts come from the vocabulary of concepts this deployment's publications carry, and from
 * the noun phrases of the text itself (src/analytics/concepts/); the vocabulary is built at
 * first use and again after an import.
 */
import { extractConcepts } from '../analytics/concepts/score.ts';
import { VocabularyBuilder, type ConceptVocabulary } from '../analytics/concepts/vocabulary.ts';
import type { FunctionCall } from '../dsl/ast.ts';
import { readTextArguments } from './text-arguments.ts';
import type { ArgumentFailure, FunctionContext, StatementFunction, StatementParameter } from './types.ts';

export interface ExtractConceptsArgs {
  readonly text: string;
  readonly returnScores: boolean;
}

/** Records whose concepts make the vocabulary, at most (the first read). */
export const VOCABULARY_RECORDS = 250_000;
/** Records whose title and abstract give the words' frequencies, at most. */
export const WORD_COUNT_RECORDS = 50_000;
/** The longest text accepted, in characters. */
export const MAX_TEXT = 100_000;

const PARAMETERS: readonly StatementParameter[] = [
  { name: 'text', type: 'string', required: true, description: 'The text to extract concepts from.' },
  {
    name: 'return_scores',
    type: 'boolean',
    required: false,
    description: 'Give each concept with its relevance in [0, 1] (default false: the concepts alone).',
  },
];

/** Builds the concept vocabulary from the publications' concepts, titles and abstracts. */
export async function buildVocabulary(context: FunctionContext): Promise<ConceptVocabulary> {
  const builder = new VocabularyBuilder();
  let read = 0;
  let texts = 0;
  outer: for await (const batch of context.readAll('publications', ['title', 'abstract', 'concepts'])) {
    context.signal?.throwIfAborted();
    for (const r of batch) {
      if (read >= VOCABULARY_RECORDS) break outer;
      read++;
      const concepts = Array.isArray(r['concepts'])
        ? (r['concepts'] as unknown[]).filter((c): c is string => typeof c === 'string')
        : undefined;
      let text: string | undefined;
      if (texts < WORD_COUNT_RECORDS) {
        const title = typeof r['title'] === 'string' ? r['title'] : '';
        const abstract = typeof r['abstract'] === 'string' ? r['abstract'] : '';
        text = `${title} ${abstract}`.trim();
        if (text !== '') texts++;
      }
      builder.add({ ...(concepts === undefined ? {} : { concepts }), ...(text === undefined ? {} : { text }) });
    }
  }
  return builder.build();
}

export const extractConceptsFunction: StatementFunction<ExtractConceptsArgs> = {
  name: 'extract_concepts',
  description:
    'The key concepts of a text, most relevant first (with return_scores=true, each with its relevance in [0, 1]), ' +
    "from the concepts this deployment's publications carry and the phrases of the text.",
  parameters: PARAMETERS,
  reads: ['publications'],

  check(call: FunctionCall, fail: ArgumentFailure): ExtractConceptsArgs {
    const { strings, booleans } = readTextArguments(call, PARAMETERS, fail);
    const text = strings.get('text');
    if (text === undefined) return fail('extract_concepts needs a text.', call.span);
    if (text.value.trim() === '') fail('extract_concepts needs a text that is not empty.', text.span);
    if (text.value.length > MAX_TEXT)
      fail(`extract_concepts reads at most ${MAX_TEXT} characters; this text has ${text.value.length}.`, text.span);
    return { text: text.value, returnScores: booleans.get('return_scores')?.value ?? false };
  },

  async run(args: ExtractConceptsArgs, context: FunctionContext) {
    const vocabulary = await context.derived('extract_concepts:vocabulary', () => buildVocabulary(context));
    const concepts = extractConcepts(args.text, vocabulary);
    return {
      extracted_concepts: args.returnScores
        ? concepts.map(({ concept, relevance }) => ({ concept, relevance }))
        : concepts.map((c) => c.concept),
    };
  },
};
