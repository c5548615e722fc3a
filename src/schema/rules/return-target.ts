import type { FunctionCall, ReturnClause } from '../../dsl/ast.ts';
import type { ValidationContext, ValidationRule } from '../context.ts';
import { facetFieldList } from '../facet-fields.ts';
import { perYearArgs } from '../function-args.ts';
import { FUNCTIONS, UNSUPPORTED_FUNCTIONS } from '../offered.ts';
import { didYouMean } from '../suggest.ts';

/**
 * Rule `return-target`: each `return` names the searched source, one of its facet fields,
 * or a function this deployment offers, with arguments that fit. An entity facet may take a
 * field list of its entity's fields (`return researchers[basics + current_research_org]`).
 *
 * @example `search publications return publication` → SCHEMA_UNKNOWN_RESULT "... Did you mean 'publications'?"
 * @example `return title` → SCHEMA_NOT_A_FACET; `return year[id]` → SCHEMA_FACET_FIELD_LIST;
 *   `return research_orgs[nme]` → SCHEMA_UNKNOWN_FACET_FIELD (did you mean 'name')
 * @example `return extract_concepts("...")` → SCHEMA_UNSUPPORTED_FUNCTION (category unsupported)
 */
export const returnTargetRule: ValidationRule = {
  name: 'return-target',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      if (ref.role !== 'facet' || ref.ret?.target.kind !== 'ResultTarget') continue;
      const target = ref.ret.target;
      const resolution = ctx.resolve(ref);
      if (resolution.kind === 'removed') continue; // reported by removed-field
      if (resolution.kind !== 'field') {
        const facets = ctx.source.fields.filter((f) => f.isFacet && f.deprecated === undefined).map((f) => f.name);
        ctx.report('SCHEMA_UNKNOWN_RESULT', ref.span, {
          name: ref.path,
          source: ctx.source.name,
          hint: didYouMean(ref.path, [ctx.source.name, ...facets]),
        });
        continue;
      }
      if (!resolution.field.isFacet) {
        ctx.report('SCHEMA_NOT_A_FACET', ref.span, { name: ref.path, source: ctx.source.name });
        continue;
      }
      if (target.fields === undefined) continue;
      if (resolution.field.facetKind !== 'entity') {
        ctx.report(
          'SCHEMA_FACET_FIELD_LIST',
          { start: target.name.span.end, end: target.span.end },
          { name: ref.path },
        );
        continue;
      }
      const list = facetFieldList(ctx.schema, resolution.field, target.fields);
      if (list.kind === 'unknown' && list.shape) {
        ctx.report('SCHEMA_FACET_FIELD_SHAPE', list.span, { name: list.name, facet: ref.path });
      } else if (list.kind === 'unknown') {
        ctx.report('SCHEMA_UNKNOWN_FACET_FIELD', list.span, {
          name: list.name,
          facet: ref.path,
          entity: resolution.field.entity ?? ref.path,
          hint: didYouMean(list.name, list.candidates),
        });
      }
    }
    for (const ret of ctx.query.returns) {
      if (ret.target.kind === 'FunctionTarget') checkFunction(ctx, ret, ret.target.call);
    }
  },
};

function checkFunction(ctx: ValidationContext, ret: ReturnClause, call: FunctionCall): void {
  const name = call.name.value;
  const fn = FUNCTIONS.get(name);
  if (fn === undefined) {
    if (ctx.options.statements?.has(name) === true) {
      ctx.report('SCHEMA_STATEMENT_NOT_RESULT', call.name.span, { name });
    } else if (UNSUPPORTED_FUNCTIONS.has(name)) {
      ctx.report('SCHEMA_UNSUPPORTED_FUNCTION', call.name.span, { name });
    } else {
      ctx.report('SCHEMA_UNKNOWN_FUNCTION', call.name.span, {
        name,
        hint: didYouMean(name, [...FUNCTIONS.keys(), ...UNSUPPORTED_FUNCTIONS]),
      });
    }
    return;
  }
  if (!fn.sources.includes(ctx.source.name)) {
    ctx.report('SCHEMA_FUNCTION_SOURCE', call.name.span, {
      name,
      sources: fn.sources.join(', '),
      source: ctx.source.name,
    });
  }
  const args = perYearArgs(call);
  if (!args.ok) ctx.report('SCHEMA_FUNCTION_ARGUMENTS', args.span, { name, problem: args.problem });
  const modifiers: [string, { span: { start: number; end: number } } | undefined][] = [
    ['aggregate', ret.aggregate?.[0]],
    ['sort', ret.sort],
    ['limit', ret.limit],
    ['skip', ret.skip],
  ];
  for (const [modifier, node] of modifiers) {
    if (node !== undefined) ctx.report('SCHEMA_FUNCTION_MODIFIER', node.span, { modifier });
  }
}
