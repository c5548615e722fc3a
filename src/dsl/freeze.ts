/**
 * Freezes a freshly built node (and the arrays it holds) so that the tree handed to other
 * layers cannot be changed behind the parser's back. Shallow on purpose: children were
 * frozen when they were built.
 */
export function frozen<T extends object>(node: T): T {
  for (const key in node) {
    const value = node[key];
    if (Array.isArray(value)) Object.freeze(value);
  }
  return Object.freeze(node);
}
