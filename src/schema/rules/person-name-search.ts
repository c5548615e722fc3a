import { assertNever, type FullTextNode } from '../../dsl/ast.ts';
import type { ValidationContext, ValidationRule } from '../context.ts';

/**
 * Rule `person-name-search`: a search in a person-name index (`authors`, `investigators`)
 * needs names of two or more parts (spec/dsl.md §3): a phrase of two or more words
 * (`"\"Jennifer A Doudna\""`), or two or more plain words side by side (`"Jennifer Doudna"`).
 *
 * @example `in authors for "Doudna"` → SCHEMA_PERSON_NAME_PARTS
 */
export const personNameSearchRule: ValidationRule = {
  name: 'person-name-search',
  check(ctx: ValidationContext): void {
    const fullText = ctx.query.fullText;
    if (fullText?.index === undefined) return;
    const index = ctx.schema.indexesBySource.get(ctx.source.name)?.get(fullText.index.value);
    if (index === undefined || !index.isPersonNameIndex) return;
    const visit = (node: FullTextNode): void => {
      switch (node.kind) {
        case 'TextTerm':
          ctx.report('SCHEMA_PERSON_NAME_PARTS', node.span, { index: index.name, term: node.text });
          return;
        case 'TextPhrase':
          if (node.words.length < 2)
            ctx.report('SCHEMA_PERSON_NAME_PARTS', node.span, { index: index.name, term: node.text });
          return;
        case 'TextAnd':
          if (node.operands.length >= 2 && node.operands.every((o) => o.kind === 'TextTerm')) return;
          node.operands.forEach(visit);
          return;
        case 'TextOr':
          node.operands.forEach(visit);
          return;
        case 'TextNot':
        case 'TextRequired':
        case 'TextProhibited':
          visit(node.operand);
          return;
        case 'TextGroup':
          visit(node.body);
          return;
        default:
          assertNever(node);
      }
    };
    visit(fullText.ast);
  },
};
