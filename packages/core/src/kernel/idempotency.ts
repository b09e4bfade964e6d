// Writes sent with an idempotency key (HTTP `Idempotency-Key`, docs/http.md). The first
// answer is kept with the key, per caller, by the write's own transaction, so a committed
// write never lacks its record nor the reverse; a repeat with the same key and request gets
// that answer again and writes nothing; the same key for another request is refused
// (`idempotency_key_reused`), and so is a repeat while the first still runs in this process
// (`idempotency_key_in_use`). A repeat sent to another process sharing the storage queues
// behind the first's transaction (write transactions are serialised, Storage.transaction),
// finds its record and answers with it; the storage's unique key decides should two ever meet.
//
// Only answers are kept. A write that fails wrote nothing, so there is nothing a retry could
// duplicate: it runs again (a storage fault, a conflict, a refusal the caller may have fixed).
import { msg } from '../domain/messages';
import { CalendarError } from '../domain/errors';
import type { Principal } from '../auth/capabilities';
import type { IdempotencyRecord } from '../storage/idempotency-store';
import { joining, startCall, type CallContext } from './call';
import type { CalendarConfig } from './context';
import { retryingConflicts } from './write';

/** A write's idempotency key, and what the write asks. */
export interface IdempotentRequest {
  /** The key the client chose: 1 to 255 visible ASCII characters. */
  readonly key: string;
  /**
   * What is asked, beyond who asks (the binding's digest of the method, the address and the
   * body): a key sent again with another fingerprint is refused.
   */
  readonly fingerprint: string;
}

/** An idempotent write's outcome: its result the first time; the answer kept then, on a repeat. */
export type IdempotentOutcome<T> =
  | { readonly replayed: false; readonly result: T }
  | { readonly replayed: true; readonly answer: string };

/**
 * Runs `write` once per key of the caller. `write` is the operation, called with the context
 * to pass on to it (its calls run in the transaction begun here); `keep` turns its result into
 * the answer kept with the key (for HTTP: status, headers, body), inside that transaction.
 */
export type IdempotentRunner = <T>(
  request: IdempotentRequest, ctx: CallContext, write: (ctx: CallContext) => Promise<T>, keep: (result: T) => string,
) => Promise<IdempotentOutcome<T>>;

/** The rule of a key: the IETF draft's, a Structured Field string (printable ASCII) of 1 to 255 characters. */
export const IDEMPOTENCY_KEY_RULE = /^[\x20-\x7e]{1,255}$/;

/** Expired records one keyed write removes: clean-up rides on writes, bounded per write. */
export const PRUNED_PER_WRITE = 20;

/** How long a repeat of a running write should wait before asking again (Retry-After), in seconds. */
const RETRY_AFTER_SECONDS = 1;

export function createIdempotentRunner(config: CalendarConfig): IdempotentRunner {
  /** The caller and key of every keyed write running in this process. */
  const running = new Set<string>();
  return async (request, ctx, write, keep) => {
    if (!IDEMPOTENCY_KEY_RULE.test(request.key)) throw invalidKey();
    const scope = scopeOf(ctx.principal);
    const { key, fingerprint } = request;
    // Most repeats find their answer without a transaction.
    const kept = answerOf(await config.storage.idempotency.get(scope, key), fingerprint, config.now());
    if (kept) return kept;
    const slot = `${scope}\n${key}`;
    if (running.has(slot)) {
      throw new CalendarError('idempotency_key_in_use', msg('A request with this Idempotency-Key is still being processed; try again shortly.'), {
        details: { retryAfter: RETRY_AFTER_SECONDS },
      });
    }
    running.add(slot);
    try {
      // What is due before an operation (scheduled posts, the horizon, pruning) runs in
      // transactions of its own, before this one begins.
      await startCall(config, ctx);
      return await retryingConflicts(() => config.storage.transaction(async (tx) => {
        const now = config.now();
        const current = await tx.idempotency.get(scope, key);
        const again = answerOf(current, fingerprint, now);
        if (again) return again;
        if (current) await tx.idempotency.delete(scope, key);
        const result = await write(joining(ctx, tx));
        const record: IdempotencyRecord = { scope, key, fingerprint, answer: keep(result), created: now, expires: now + config.idempotencyTtlMs };
        await tx.idempotency.insert(record);
        await tx.idempotency.prune(now, PRUNED_PER_WRITE);
        return { replayed: false as const, result };
      }));
    } finally {
      running.delete(slot);
    }
  };
}

/** Whose keys: each user's own; anonymous callers share one scope (docs/http.md: keys must be unguessable). */
export function scopeOf(principal: Principal | undefined): string {
  return principal ? `user:${principal.id}` : 'anonymous';
}

/** The kept answer of a record that has not expired; refused when it was kept for another request. */
function answerOf(record: IdempotencyRecord | undefined, fingerprint: string, now: number): IdempotentOutcome<never> | undefined {
  if (!record || record.expires <= now) return undefined;
  if (record.fingerprint !== fingerprint) {
    throw new CalendarError('idempotency_key_reused', msg('This Idempotency-Key was already used for another request (another method, address or body); use a new key for a new request.'));
  }
  return { replayed: true, answer: record.answer };
}

/** The refusal of a key that breaks the rule. */
export function invalidKey(): CalendarError {
  return new CalendarError('invalid_idempotency_key', msg('The Idempotency-Key header must be a string of 1 to 255 printable ASCII characters (a Structured Field string: "…").'));
}
