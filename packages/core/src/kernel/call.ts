// What one operation call works with: the caller, the clock reading, the links to build URLs
// with, and the storage (or the transaction) it writes through.
import { msg } from '../domain/messages';
import { permissionsFor, type Permissions } from '../auth/capabilities';
import { CalendarError } from '../domain/errors';
import { isStorageFault } from '../storage/storage-errors';
import { newArgMemo, type ArgMemo } from './arg-memo';
import type { Storage, StorageTransaction } from '../storage/storage';
import type { ArgContext, CalendarConfig, Call, CallContext, ListStability, WriteCall } from './context';
import { holdsAt } from '../time/validity';

export type { Call, CallContext, WriteCall } from './context';

/**
 * The start of an operation: the scheduled posts that are due are published first (a sweep at
 * most every 30 s), the recurrence horizon moved along when it lags (a storage read at most
 * when it does) and the change log pruned (at most hourly); then the call begins.
 */
export function startCall(config: CalendarConfig, ctx?: CallContext): Call | Promise<Call> {
  // A call inside a transaction (an idempotent write's) had what was due run before that began.
  if (ctx && joinedTransaction(ctx)) return beginCall(config, ctx);
  // Most calls find nothing due: they begin without waiting on anything.
  const publishing = config.publishDue();
  if (publishing === undefined && !config.horizon.lags(config.now())) {
    const pruning = config.pruneDue();
    return pruning === undefined ? beginCall(config, ctx) : pruning.then(() => beginCall(config, ctx));
  }
  return startAfterDue(config, ctx, publishing);
}

/**
 * Whether a list planned at `stable` (ListPlan.stable) would be planned with the same
 * validator now: the clock within the interval its dates hold for, nothing due to run first (scheduled posts to publish, the
 * recurrence horizon to move, the change log to prune: each starts here, and the next
 * operation waits for it), and no change committed since. False whenever in doubt.
 */
export async function listUnchanged(config: CalendarConfig, stable: ListStability): Promise<boolean> {
  return nothingDueSince(config, stable) && (await config.storage.lastChange()) === stable.change;
}

/** `listUnchanged` without waiting: undefined when the storage cannot read its change counter now (Storage.changeNow). */
export function listUnchangedNow(config: CalendarConfig, stable: ListStability): boolean | undefined {
  if (!nothingDueSince(config, stable)) return false;
  const change = config.storage.changeNow?.();
  return change === undefined ? undefined : change === stable.change;
}

/** The clock within the interval the list's dates hold for, and nothing due to run first (starting it, as `startCall` does). */
function nothingDueSince(config: CalendarConfig, stable: ListStability): boolean {
  const now = config.now();
  if (!holdsAt(stable, now)) return false;
  return config.publishDue() === undefined && !config.horizon.lags(now) && config.pruneDue() === undefined;
}

async function startAfterDue(config: CalendarConfig, ctx: CallContext | undefined, publishing: Promise<void> | undefined): Promise<Call> {
  // What is due runs before the operation, but a storage that takes no writes now (full,
  // read-only, a standby) must not stop the operation: it is tried again on a later one, and
  // a write refused for the same reason says so itself.
  await publishing?.catch(unlessStorageFault);
  // A horizon that cannot move now (a busy storage) moves on a later operation; this one goes on.
  await config.horizon.roll(beginCall(config)).catch(() => undefined);
  await config.pruneDue()?.catch(unlessStorageFault);
  return beginCall(config, ctx);
}

/** Rethrows anything but a fault of the storage. */
function unlessStorageFault(error: unknown): void {
  if (!isStorageFault(error)) throw error;
}

export function beginCall(config: CalendarConfig, ctx: CallContext = {}): Call {
  const permissions = permissionsFor(ctx.principal, config.roles, config.authorize);
  const now = config.now();
  const links = ctx.links ?? { siteUrl: config.siteUrl, apiRoot: config.apiRoot };
  const storage = joinedTransaction(ctx) ?? config.storage;
  return {
    config,
    storage,
    permissions,
    principal: ctx.principal,
    now,
    links,
    args: new LazyArgContext(storage, config, permissions, now),
    preconditions: ctx.preconditions,
  };
}

/** A call's argument context whose memo is made when an argument first needs one (a list answered from its plan never does). */
class LazyArgContext implements ArgContext {
  #memo: ArgMemo | undefined;
  constructor(readonly storage: Storage, readonly config: CalendarConfig, readonly permissions: Permissions, readonly now: number) {}
  get memo(): ArgMemo {
    return (this.#memo ??= newArgMemo());
  }
}

/**
 * Contexts of calls that run inside a transaction begun for them (an idempotent write's:
 * idempotency.ts), and that transaction. Kept here rather than in `CallContext`, so that
 * only core can make a call join a transaction.
 */
const joined = new WeakMap<CallContext, StorageTransaction>();

/** A context like `ctx` whose calls read and write through `tx`. */
export function joining(ctx: CallContext, tx: StorageTransaction): CallContext {
  const inner = { ...ctx };
  joined.set(inner, tx);
  return inner;
}

function joinedTransaction(ctx: CallContext): StorageTransaction | undefined {
  return joined.get(ctx);
}

/** The same call reading and writing through a transaction's storage (with values memoised afresh). */
export function withStorage(call: Call, storage: StorageTransaction): WriteCall {
  return { ...call, storage, args: { storage, config: call.config, permissions: call.permissions, now: call.now, memo: newArgMemo() } };
}

/** The refusal of a permission check: 401 for anonymous callers, 403 otherwise (on the wire). */
export function refused(call: Call): CalendarError {
  return call.principal
    ? new CalendarError('forbidden', msg('Sorry, you are not allowed to do that.'))
    : new CalendarError('unauthenticated', msg('Sorry, you are not allowed to do that.'));
}

/** Throws the refusal unless `allowed`. */
export function requirePermission(call: Call, allowed: boolean): void {
  if (!allowed) throw refused(call);
}
