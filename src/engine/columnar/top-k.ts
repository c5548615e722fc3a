/**
 * The `k` best of many candidates without sorting them all: a bounded heap whose root is
 * the worst kept so far. A facet over a few hundred thousand values keeps its LIMIT (5 to
 * 1000) rows in O(n log k) instead of sorting every group.
 */

/** The `k` best candidates, best first; `before(a, b)` is true when `a` ranks ahead of `b`. */
export function topK(candidates: Iterable<number>, k: number, before: (a: number, b: number) => boolean): number[] {
  if (k <= 0) return [];
  const heap: number[] = [];
  // The root is the worst kept: `a` sits above `b` when `b` ranks ahead of `a`.
  const above = (a: number, b: number): boolean => before(b, a);
  for (const c of candidates) {
    if (heap.length < k) {
      heap.push(c);
      siftUp(heap, heap.length - 1, above);
    } else if (before(c, heap[0] as number)) {
      heap[0] = c;
      siftDown(heap, 0, above);
    }
  }
  return heap.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
}

function siftUp(heap: number[], i: number, above: (a: number, b: number) => boolean): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!above(heap[i] as number, heap[parent] as number)) return;
    [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
    i = parent;
  }
}

function siftDown(heap: number[], i: number, above: (a: number, b: number) => boolean): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let top = i;
    if (l < heap.length && above(heap[l] as number, heap[top] as number)) top = l;
    if (r < heap.length && above(heap[r] as number, heap[top] as number)) top = r;
    if (top === i) return;
    [heap[i], heap[top]] = [heap[top] as number, heap[i] as number];
    i = top;
  }
}
