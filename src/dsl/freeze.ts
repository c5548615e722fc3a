/**
 * Freezes a freshly built node so that the tree handed to other layers cannot be changed
 * behind the parser's back. Shallow on purpose: children, arrays (`frozenList`) and spans
 * (`span`) are frozen when they are built, which keeps this off the profile.
 */
export function frozen<T extends object>(node: T): T {
  return Object.freeze(node);
}

/** Freezes an array the parser has finished filling. */
export function frozenList<T>(items: T[]): readonly T[] {
  return Object.freeze(items);
}

/** A frozen span. */
export function span(start: number, end: number): { readonly start: number; readonly end: number } {
  return Object.freeze({ start, end });
}
