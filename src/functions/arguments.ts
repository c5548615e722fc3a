/**
 * Reading a statement function's arguments in its `check`: binding positional and named
 * arguments to its parameters, and turning argument values into plain JSON. Every mistake
 * goes to `fail`, which throws a positioned 400.
 */
import type { ArgumentValue, FunctionCall } from '../dsl/ast.ts';
import type { ArgumentFailure, JsonValue, StatementParameter } from './types.ts';

/**
 * The arguments by parameter name: positional ones take the parameters in order (as the
 * hosted documentation allows: `extract_grants("R01HL117329", fundref="100000050")`), named
 * ones their own. Validation has already refused unknown and repeated names.
 *
 * @example bindArguments(call, EXTRACT_GRANTS_PARAMETERS, fail).get('grant_number') // { kind: 'String', ... }
 */
export function bindArguments(
  call: FunctionCall,
  parameters: readonly StatementParameter[],
  fail: ArgumentFailure,
): ReadonlyMap<string, ArgumentValue> {
  const bound = new Map<string, ArgumentValue>();
  let position = 0;
  for (const arg of call.args) {
    if (arg.kind === 'NamedArgument') {
      if (bound.has(arg.name.value)) fail(`'${arg.name.value}' is given twice`, arg.span);
      bound.set(arg.name.value, arg.value);
      continue;
    }
    const parameter = parameters[position++];
    if (parameter === undefined) {
      fail(`it takes at most ${parameters.length} argument${parameters.length === 1 ? '' : 's'}`, arg.span);
    }
    bound.set(parameter.name, arg.value);
  }
  for (const parameter of parameters) {
    if (parameter.required && !bound.has(parameter.name)) {
      fail(`${parameter.name} is required (${parameter.description})`, call.span);
    }
  }
  return bound;
}

/** An argument value as plain JSON data. */
export function jsonOf(value: ArgumentValue): JsonValue {
  switch (value.kind) {
    case 'String':
    case 'Number':
    case 'Boolean':
      return value.value;
    case 'Null':
      return null;
    case 'List':
      return value.items.map(jsonOf);
    case 'Object':
      return Object.fromEntries(value.entries.map((entry) => [entry.key.value, jsonOf(entry.value)]));
  }
}

/** A string argument, trimmed; a number is taken as its digits (`grant_number=123456`). */
export function stringOf(value: ArgumentValue, name: string, fail: ArgumentFailure): string {
  if (value.kind === 'String') return value.value.trim();
  if (value.kind === 'Number' && value.integer) return value.raw;
  return fail(`${name} must be a string in double quotes`, value.span);
}
