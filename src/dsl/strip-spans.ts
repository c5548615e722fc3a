/**
 * A copy of a syntax tree without its `span` properties, for comparing trees that came
 * from different texts (the printer round-trip, caches keyed on meaning).
 *
 * @example stripSpans(parse('search grants  return grants')) // equal to stripSpans(parse('search grants return grants'))
 */
export function stripSpans<T>(node: T): T {
  if (Array.isArray(node)) return node.map((item: unknown) => stripSpans(item)) as T;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'span') out[key] = stripSpans(value);
  }
  return out as T;
}
