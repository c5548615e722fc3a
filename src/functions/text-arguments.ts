/**
 * Reads the arguments of a function that takes strings and booleans by position or by name
 * (`classify(title="…", abstract="…", system="FOR")`, `extract_concepts("…", return_scores=true)`),
 * failing with a positioned message on an unknown or repeated name, a missing required one or
 * a value of the wrong type.
 */
import type { ArgumentValue, FunctionCall } from '../dsl/ast.ts';
import type { Span } from '../errors/index.ts';
import type { ArgumentFailure, StatementParameter } from './types.ts';

/** A read argument: its value and where it was written. */
export interface ReadArgument<T> {
  readonly value: T;
  readonly span: Span;
}

export interface ReadArguments {
  readonly strings: ReadonlyMap<string, ReadArgument<string>>;
  readonly booleans: ReadonlyMap<string, ReadArgument<boolean>>;
}

function kindOf(value: ArgumentValue): string {
  switch (value.kind) {
    case 'String':
      return 'a string';
    case 'Number':
      return 'a number';
    case 'Boolean':
      return 'a boolean';
    case 'List':
      return 'a list';
    case 'Object':
      return 'an object';
    case 'Null':
      return 'null';
  }
}

/**
 * The arguments of `call` against `parameters` (type `string` or `boolean`, in positional
 * order). Positional arguments fill the parameters in order, then named ones.
 */
export function readTextArguments(
  call: FunctionCall,
  parameters: readonly StatementParameter[],
  fail: ArgumentFailure,
): ReadArguments {
  const name = call.name.value;
  const strings = new Map<string, ReadArgument<string>>();
  const booleans = new Map<string, ReadArgument<boolean>>();
  const given = new Set<string>();
  const names = parameters.map((p) => p.name).join(', ');
  let position = 0;
  for (const arg of call.args) {
    let parameter: StatementParameter | undefined;
    if (arg.kind === 'PositionalArgument') {
      parameter = parameters[position++];
      if (parameter === undefined) fail(`${name} takes at most ${parameters.length} arguments (${names}).`, arg.span);
    } else {
      parameter = parameters.find((p) => p.name === arg.name.value);
      if (parameter === undefined)
        fail(`${name} has no argument '${arg.name.value}'. Its arguments are: ${names}.`, arg.name.span);
    }
    if (given.has(parameter.name)) fail(`${name}: argument '${parameter.name}' is given twice.`, arg.span);
    given.add(parameter.name);
    const value = arg.value;
    if (parameter.type === 'boolean') {
      if (value.kind !== 'Boolean')
        fail(`${name}: '${parameter.name}' must be true or false, not ${kindOf(value)}.`, value.span);
      booleans.set(parameter.name, { value: value.value, span: value.span });
    } else {
      if (value.kind !== 'String')
        fail(`${name}: '${parameter.name}' must be a string, not ${kindOf(value)}.`, value.span);
      strings.set(parameter.name, { value: value.value, span: value.span });
    }
  }
  for (const p of parameters)
    if (p.required && !given.has(p.name)) fail(`${name} needs the argument '${p.name}' (${p.description})`, call.span);
  return { strings, booleans };
}
