// Chunking: statements over more ids than one IN list may bind, or than one bulk write should
// change at once, run as several, each on a slice. The collections and the row locks use it.

/**
 * The most values one `IN (…)` list binds. SQLite refuses a statement with more than 32,766
 * variables and PostgreSQL one with more than 65,535 parameters, and an unpaged list (every
 * scheduled post that is due, every series) can hold more rows than that.
 */
export const IN_LIST_LIMIT = 10_000;

/**
 * The most rows one statement of a bulk write (setStatus, unlink) changes. Inside a transaction
 * SQLite keeps a copy of every page a statement changes until it ends, in memory during write
 * transactions (`inMemorySubjournals`): in statements of 10,000 events, setting every published
 * event to draft raised the peak RSS by 20 MB more than with the copies in a temporary file on
 * the 10k benchmark file (8,600 events), 58 MB more on the 100k one; in statements of 1,000, 6 MB.
 */
export const WRITE_CHUNK = 1_000;

/** `query` over `values` in lists of at most `size` (IN_LIST_LIMIT), the rows of all of them together. */
export async function inChunks<V, R>(values: readonly V[], query: (chunk: readonly V[]) => Promise<R[]>, size = IN_LIST_LIMIT): Promise<R[]> {
  if (values.length <= size) return query(values);
  const out: R[] = [];
  for (let i = 0; i < values.length; i += size) out.push(...(await query(values.slice(i, i + size))));
  return out;
}
