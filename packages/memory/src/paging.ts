// Pages of a list in a total order: the first k items by a bounded heap when the page is a
// small part of the matches, a full sort otherwise; as core's sort-then-paginate gives them.
import { paginate, type EventQuery, type EventRecord } from '@evcal/core/adapter';

/** The paging of a query, when it is plain (non-negative integers). */
export function plainPaging(q: EventQuery): { offset: number; limit: number | undefined } | undefined {
  const offset = q.offset ?? 0;
  const limit = q.limit;
  if (!Number.isInteger(offset) || offset < 0) return undefined;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) return undefined;
  return { offset, limit };
}

/** The `k` first items of `items` in `cmp` order, sorted (a bounded max-heap). */
function firstK<T>(items: readonly T[], k: number, cmp: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  const heap: T[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && cmp(heap[l]!, heap[top]!) > 0) top = l;
      if (r < heap.length && cmp(heap[r]!, heap[top]!) > 0) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (cmp(heap[i]!, heap[p]!) <= 0) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    } else if (cmp(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(cmp);
}

/** One page of `matching` in `cmp` order (a total order), as core's sort-then-paginate gives it. */
export function pageOf(matching: EventRecord[], q: EventQuery, cmp: (a: EventRecord, b: EventRecord) => number): EventRecord[] {
  const paging = plainPaging(q);
  if (paging && paging.limit !== undefined && (paging.offset + paging.limit) * 4 < matching.length) {
    return firstK(matching, paging.offset + paging.limit, cmp).slice(paging.offset);
  }
  matching.sort(cmp);
  return paginate(matching, q);
}
