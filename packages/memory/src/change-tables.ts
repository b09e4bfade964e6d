// The change log, the webhook endpoints and the outbox of a memory storage, and the view a
// transaction has of them: like the record tables (table.ts), a view collects its writes and
// applies them in one synchronous step on commit. Writes to the outbox alone (claims and
// settlements) are housekeeping: they commit without taking a change number.
import {
  storageError,
  type ChangeEntry, type ChangeLogState, type ChangePosition, type DeliveryKey, type DeliveryOutcome, type StoredChanges,
  type WebhookAttempt, type WebhookDelivery, type WebhookEndpointAttempts, type WebhookEndpointRecord, type WebhookEndpointStatus,
} from '@evcal/core/adapter';

/** What a snapshot holds of the change log and the webhooks. */
export type ChangesSnapshot = StoredChanges;

/** The committed state. */
export class ChangeTables {
  state: ChangeLogState = { id: newLogId(), prunedThrough: 0 };
  /** In (change, seq) order. */
  entries: ChangeEntry[] = [];
  readonly endpoints = new Map<string, WebhookEndpointRecord>();
  /** By endpoint id: the attempts of the endpoints that had any. */
  readonly attempts = new Map<string, WebhookEndpointAttempts>();
  /** By deliveryKey, in the order they were enqueued: (change, seq) order. */
  readonly deliveries = new Map<string, WebhookDelivery>();

  /** Committed entries at or after `from`, at most `limit`. */
  read(from: ChangePosition, limit: number): ChangeEntry[] {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.entries[mid]!, from)) lo = mid + 1;
      else hi = mid;
    }
    return this.entries.slice(lo, lo + Math.max(0, limit));
  }

  snapshot(): ChangesSnapshot {
    return {
      log: this.state, entries: [...this.entries], endpoints: [...this.endpoints.values()], endpointAttempts: [...this.attempts.values()],
      deliveries: [...this.deliveries.values()],
    };
  }

  load(snapshot: ChangesSnapshot | undefined): void {
    this.state = snapshot?.log ?? { id: newLogId(), prunedThrough: 0 };
    this.entries = [...(snapshot?.entries ?? [])].sort((a, b) => a.change - b.change || a.seq - b.seq);
    this.endpoints.clear();
    for (const e of snapshot?.endpoints ?? []) this.endpoints.set(e.id, e);
    this.attempts.clear();
    for (const a of snapshot?.endpointAttempts ?? []) this.attempts.set(a.endpointId, a);
    this.deliveries.clear();
    const ordered = [...(snapshot?.deliveries ?? [])].sort((a, b) => a.change - b.change || a.seq - b.seq);
    for (const d of ordered) this.deliveries.set(deliveryKey(d), d);
  }
}

/** The change tables as one transaction sees them. */
export class ChangeView {
  private readonly appended: ChangeEntry[] = [];
  private readonly endpoints = new Map<string, WebhookEndpointRecord | null>();
  private readonly deliveries = new Map<string, WebhookDelivery | null>();
  private readonly attempts = new Map<string, WebhookEndpointAttempts | null>();
  private prunedThrough: number | undefined;

  constructor(private readonly tables: ChangeTables) {}

  /** Whether the transaction changed the log or the endpoints (a write that takes a change number). */
  get dirty(): boolean {
    return this.appended.length > 0 || this.endpoints.size > 0 || this.prunedThrough !== undefined;
  }

  /** Whether it changed the outbox or the endpoints' attempts. */
  get housekeeping(): boolean {
    return this.deliveries.size > 0 || this.attempts.size > 0;
  }

  append(entries: readonly ChangeEntry[]): void {
    this.appended.push(...entries);
  }

  prune(cutoff: number): void {
    const pruned = this.prunedThrough ?? this.tables.state.prunedThrough;
    let through = pruned;
    for (const e of this.tables.entries) if (e.at < cutoff && e.change > through) through = e.change;
    if (through > pruned) this.prunedThrough = through;
  }

  endpoint(id: string): WebhookEndpointRecord | undefined {
    const change = this.endpoints.get(id);
    return change === null ? undefined : change ?? this.tables.endpoints.get(id);
  }

  listEndpoints(): WebhookEndpointRecord[] {
    const out = [...this.tables.endpoints.values()].filter((e) => !this.endpoints.has(e.id));
    for (const e of this.endpoints.values()) if (e) out.push(e);
    return out.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
  }

  insertEndpoint(e: WebhookEndpointRecord): void {
    if (this.endpoint(e.id)) throw storageError('conflict', new Error(`evcal/memory: endpoint ${e.id} exists`));
    this.endpoints.set(e.id, e);
  }

  replaceEndpoint(e: WebhookEndpointRecord): void {
    if (!this.endpoint(e.id)) throw storageError('conflict', new Error(`evcal/memory: no endpoint ${e.id}`));
    this.endpoints.set(e.id, e);
  }

  deleteEndpoint(id: string): void {
    if (!this.endpoint(id)) return;
    this.endpoints.set(id, null);
    this.attempts.set(id, null);
    for (const d of this.allDeliveries()) if (d.endpointId === id) this.deliveries.set(deliveryKey(d), null);
  }

  enqueue(list: readonly WebhookDelivery[]): void {
    for (const d of list) this.deliveries.set(deliveryKey(d), d);
  }

  claim(now: number, leasedUntil: number, limit: number): WebhookDelivery[] {
    const claimed: WebhookDelivery[] = [];
    /** Endpoint and record of every pending delivery met so far: only the first of each may go. */
    const blocked = new Set<string>();
    for (const d of this.allDeliveries()) {
      if (claimed.length >= limit) break;
      if (d.state !== 'pending') continue;
      const lane = `${d.endpointId} ${d.recordKey}`;
      if (blocked.has(lane)) continue;
      blocked.add(lane);
      if (d.nextAttemptAt > now || (d.leasedUntil !== null && d.leasedUntil > now) || !this.endpoint(d.endpointId)?.enabled) continue;
      const leased = { ...d, leasedUntil };
      this.deliveries.set(deliveryKey(d), leased);
      claimed.push(leased);
    }
    return claimed;
  }

  settle(key: DeliveryKey, outcome: DeliveryOutcome, attempt?: WebhookAttempt): void {
    const k = deliveryKey(key);
    const current = this.delivery(k);
    if (current) {
      if (outcome.state === 'delivered') this.deliveries.set(k, null);
      else this.deliveries.set(k, { ...current, ...outcome, leasedUntil: null });
    }
    if (attempt && this.endpoint(key.endpointId)) {
      const before = this.attemptsOf(key.endpointId);
      this.attempts.set(key.endpointId, {
        endpointId: key.endpointId, lastAttemptAt: attempt.at, lastStatus: attempt.status, lastError: attempt.error,
        consecutiveFailures: attempt.error === null ? 0 : (before?.consecutiveFailures ?? 0) + 1,
      });
    }
  }

  statuses(): WebhookEndpointStatus[] {
    const out = new Map<string, { -readonly [K in keyof WebhookEndpointStatus]: WebhookEndpointStatus[K] }>();
    for (const e of this.listEndpoints()) {
      const a = this.attemptsOf(e.id);
      out.set(e.id, {
        endpointId: e.id, lastAttemptAt: a?.lastAttemptAt ?? null, lastStatus: a?.lastStatus ?? null, lastError: a?.lastError ?? null,
        consecutiveFailures: a?.consecutiveFailures ?? 0, waiting: 0, failed: 0, nextAttemptAt: null,
      });
    }
    for (const d of this.allDeliveries()) {
      const s = out.get(d.endpointId);
      if (!s) continue;
      if (d.state === 'failed') s.failed += 1;
      else {
        s.waiting += 1;
        s.nextAttemptAt = Math.min(s.nextAttemptAt ?? d.nextAttemptAt, d.nextAttemptAt);
      }
    }
    return [...out.values()];
  }

  wake(now: number): void {
    for (const d of this.allDeliveries()) {
      if (d.state === 'pending' && d.nextAttemptAt > now) {
        this.deliveries.set(deliveryKey(d), { ...d, nextAttemptAt: now });
      }
    }
  }

  deliveriesOf(endpointId: string, limit: number): WebhookDelivery[] {
    const out: WebhookDelivery[] = [];
    for (const d of this.allDeliveries()) {
      if (out.length >= limit) break;
      if (d.endpointId === endpointId) out.push(d);
    }
    return out;
  }

  pruneFailed(cutoff: number): void {
    for (const d of this.allDeliveries()) {
      if (d.state === 'failed' && (d.lastAttemptAt ?? 0) < cutoff) this.deliveries.set(deliveryKey(d), null);
    }
  }

  /** Applies the view to the tables. */
  commit(): void {
    const t = this.tables;
    if (this.appended.length) t.entries.push(...this.appended);
    if (this.prunedThrough !== undefined && this.prunedThrough > t.state.prunedThrough) {
      const through = this.prunedThrough;
      t.entries = t.entries.filter((e) => e.change > through);
      t.state = { ...t.state, prunedThrough: through };
    }
    for (const [id, e] of this.endpoints) {
      if (e) t.endpoints.set(id, e);
      else t.endpoints.delete(id);
    }
    for (const [k, d] of this.deliveries) {
      if (d) t.deliveries.set(k, d);
      else t.deliveries.delete(k);
    }
    for (const [id, a] of this.attempts) {
      if (a) t.attempts.set(id, a);
      else t.attempts.delete(id);
    }
  }

  private attemptsOf(endpointId: string): WebhookEndpointAttempts | undefined {
    const change = this.attempts.get(endpointId);
    return change === null ? undefined : change ?? this.tables.attempts.get(endpointId);
  }

  private delivery(key: string): WebhookDelivery | undefined {
    const change = this.deliveries.get(key);
    return change === null ? undefined : change ?? this.tables.deliveries.get(key);
  }

  /** Committed deliveries with this view's changes, then its new ones, in (change, seq) order. */
  private *allDeliveries(): IterableIterator<WebhookDelivery> {
    for (const [k, d] of this.tables.deliveries) {
      const change = this.deliveries.get(k);
      if (change === undefined) yield d;
      else if (change) yield change;
    }
    for (const [k, d] of this.deliveries) if (d && !this.tables.deliveries.has(k)) yield d;
  }
}

export function deliveryKey(d: DeliveryKey): string {
  return `${d.endpointId} ${d.change} ${d.seq}`;
}

function before(e: ChangePosition, from: ChangePosition): boolean {
  return e.change < from.change || (e.change === from.change && e.seq < from.seq);
}

/** A random id for a new log (tokens of another log are refused). */
function newLogId(): string {
  return globalThis.crypto.randomUUID();
}
