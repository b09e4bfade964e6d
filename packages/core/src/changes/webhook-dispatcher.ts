// The webhook sender's loop: claims due deliveries from the outbox (so that several servers
// sharing a storage never send one at the same time), sends each through the transport it is
// given (the HTTP binding signs and POSTs: @evcal/http createWebhookSender), and records the
// outcome: delivered (removed), retried later with backoff and jitter (honouring Retry-After),
// failed once the schedule is used up, and the endpoint disabled when it answers 410 Gone.
// Every attempt is recorded in its endpoint's status (GET /webhooks), and every failed one is
// told (`onFailure`: `evcal serve` logs it at warn), so that no delivery fails unseen. A
// sender that starts tries at once what waited (`wake`): a server is restarted to fix what
// made attempts fail (an address refused, a firewall), and the next step of the schedule can
// be hours away. Writes never wait for it: they only add to the outbox.
import type { CalendarConfig } from '../kernel/context';
import { isStorageConflict } from '../storage/storage-errors';
import type { WebhookDelivery, WebhookEndpointRecord } from '../storage/change-store';
import { loggableUrl } from './webhook-addresses';

/** One signed POST to make. */
export interface WebhookMessage {
  readonly url: string;
  /** The endpoint's `whsec_` secret. */
  readonly secret: string;
  /** `webhook-id`. */
  readonly id: string;
  /** `webhook-timestamp`: seconds since the epoch, when this attempt is made. */
  readonly timestamp: number;
  /** The JSON body. */
  readonly body: string;
}

/** The receiver's answer: its status and, if it sent one, `Retry-After`. */
export interface WebhookAnswer {
  readonly status: number;
  readonly retryAfter?: string | null;
}

/** Sends a message; rejects when no answer came (refused address, network error, time-out). */
export type WebhookSend = (message: WebhookMessage) => Promise<WebhookAnswer>;

/** A failed attempt, as `onFailure` is told of it. */
export interface WebhookFailure {
  readonly endpointId: string;
  /** The endpoint's URL without credentials, query or fragment (they may carry secrets). */
  readonly url: string;
  /** Why: the error (`refused: 127.0.0.1 is a loopback address …`, `connect ECONNREFUSED …`) or `HTTP <status>`. */
  readonly reason: string;
  /** The HTTP status received; null when none was. */
  readonly status: number | null;
  /** The attempts made of this delivery, this one included. */
  readonly attempt: number;
  /** `retry` at `nextAttemptAt`; `failed`: the schedule is used up; `disabled`: the endpoint answered 410 and was disabled. */
  readonly outcome: 'retry' | 'failed' | 'disabled';
  /** Epoch ms of the next attempt; null unless `retry`. */
  readonly nextAttemptAt: number | null;
  /** `webhook-id` of the message. */
  readonly messageId: string;
}

/** The delays before each retry, after the first attempt: Standard Webhooks' schedule. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface WebhookDispatcherOptions {
  readonly send: WebhookSend;
  /** Delays (ms) before the retries; once used up a delivery is failed. @default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h */
  readonly retrySchedule?: readonly number[];
  /**
   * How long a claimed delivery stays reserved for this sender: longer than a send can take,
   * so another server takes it over only from a sender that stopped.
   * @default 60000
   */
  readonly leaseMs?: number;
  /** Deliveries claimed at once. @default 20 */
  readonly batch?: number;
  /** How often the outbox is looked at when nothing is happening, in ms. @default 1000 */
  readonly intervalMs?: number;
  /** The real clock (receivers check `webhook-timestamp` against theirs). @default Date.now */
  readonly now?: () => number;
  /** For the jitter. @default Math.random */
  readonly random?: () => number;
  /** Told of failures of the loop itself (the storage, not a receiver). @default the calendar's onError */
  readonly onError?: (error: unknown) => void;
  /** Told of every failed attempt. @default a line on console.warn */
  readonly onFailure?: (failure: WebhookFailure) => void;
}

export interface WebhookDispatcher {
  /** Sends what is due now, one batch after another; resolves with how many were attempted. */
  runOnce(): Promise<number>;
  /**
   * Runs in the background: at every interval, and soon after each change of this calendar that
   * queued deliveries (a write with no endpoint to tell wakes nothing). First makes the
   * deliveries waiting for a retry due at once (WebhookStore.wake).
   */
  start(): void;
  /** Stops, after the attempts in flight. */
  stop(): Promise<void>;
}

/** The longest wait a Retry-After can ask for. */
const MAX_RETRY_AFTER = 86_400_000;

/** What the dispatcher uses of a calendar (createCalendar's): its configuration, whose change events say when deliveries were queued. */
export interface DispatchedCalendar {
  readonly config: CalendarConfig;
}

export function createWebhookDispatcher(calendar: DispatchedCalendar, options: WebhookDispatcherOptions): WebhookDispatcher {
  const storage = calendar.config.storage;
  const schedule = options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const leaseMs = options.leaseMs ?? 60_000;
  const batch = options.batch ?? 20;
  const intervalMs = options.intervalMs ?? 1_000;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const onError = options.onError ?? calendar.config.onError;
  const onFailure = options.onFailure ?? ((f: WebhookFailure) => console.warn(`evcal: webhook delivery to ${f.endpointId} (${f.url}) failed: ${f.reason}; ${describeNextAttempt(f)}`));

  const attempt = async (d: WebhookDelivery, endpoint: WebhookEndpointRecord | undefined): Promise<void> => {
    // Removed or disabled since the claim: its deliveries were removed with it, or wait for it.
    if (!endpoint || !endpoint.enabled) {
      await storage.webhooks.settle(d, unchanged(d));
      return;
    }
    const sentAt = now();
    let answer: WebhookAnswer | undefined;
    let error: string | null = null;
    try {
      answer = await options.send({ url: endpoint.url, secret: endpoint.secret, id: d.messageId, timestamp: Math.floor(sentAt / 1000), body: d.payload });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const status = answer?.status ?? null;
    if (status !== null && status >= 200 && status < 300) {
      await storage.webhooks.settle(d, { state: 'delivered' }, { at: sentAt, status, error: null });
      return;
    }
    const attempts = d.attempts + 1;
    const lastError = error ?? `HTTP ${status}`;
    const tried = { at: sentAt, status, error: lastError };
    const failure = (outcome: WebhookFailure['outcome'], nextAttemptAt: number | null) => onFailure({
      endpointId: endpoint.id, url: loggableUrl(endpoint.url), reason: lastError, status, attempt: attempts, outcome, nextAttemptAt, messageId: d.messageId,
    });
    if (status === 410) {
      // Gone: the endpoint is disabled; the delivery waits for it to be enabled again.
      await disable(endpoint.id, now());
      await storage.webhooks.settle(d, { state: 'pending', attempts, nextAttemptAt: now(), lastAttemptAt: sentAt, lastStatus: status, lastError }, tried);
      failure('disabled', null);
      return;
    }
    if (attempts > schedule.length) {
      await storage.webhooks.settle(d, { state: 'failed', attempts, nextAttemptAt: d.nextAttemptAt, lastAttemptAt: sentAt, lastStatus: status, lastError }, tried);
      failure('failed', null);
      return;
    }
    // Full schedule step with ±20 % jitter, so retries of many deliveries spread out.
    const delay = Math.round(schedule[attempts - 1]! * (0.8 + 0.4 * random()));
    const asked = retryAfterMs(answer?.retryAfter, now());
    const wait = Math.max(delay, Math.min(asked ?? 0, MAX_RETRY_AFTER));
    const nextAttemptAt = now() + wait;
    await storage.webhooks.settle(d, { state: 'pending', attempts, nextAttemptAt, lastAttemptAt: sentAt, lastStatus: status, lastError }, tried);
    failure('retry', nextAttemptAt);
  };

  const disable = (id: string, at: number) => storage.transaction(async (tx) => {
    const current = await tx.webhooks.getEndpoint(id);
    if (current?.enabled) await tx.webhooks.replaceEndpoint({ ...current, enabled: false, disabledReason: 'gone', updated: at });
  });

  const runBatch = async (): Promise<number> => {
    const at = now();
    const claimed = await storage.webhooks.claim({ now: at, leasedUntil: at + leaseMs, limit: batch });
    if (claimed.length === 0) return 0;
    const endpoints = new Map((await storage.webhooks.listEndpoints()).map((e) => [e.id, e]));
    // At most one delivery per endpoint and record in a batch: they can go out together.
    await Promise.all(claimed.map((d) => attempt(d, endpoints.get(d.endpointId)).catch(onError)));
    return claimed.length;
  };

  const runOnce = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const n = await runBatch();
      total += n;
      if (n < batch) return total;
    }
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;
  let stopped = true;
  let unsubscribe: (() => void) | undefined;
  /** Whether the waiting deliveries were made due since the start. */
  let woken = false;
  const cycle = async (): Promise<number> => {
    if (!woken) {
      await storage.webhooks.wake(now());
      woken = true;
    }
    return runOnce();
  };
  const plan = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref?.();
  };
  const tick = () => {
    if (running) {
      again = true;
      return;
    }
    // A conflict is passing (another process holds the storage's write lock: a JSON file read by
    // this server and written by another, which delivers): look again at the next interval.
    running = cycle().catch((error: unknown) => {
      if (!isStorageConflict(error)) onError(error);
    }).finally(() => {
      running = undefined;
      if (again) {
        again = false;
        plan(0);
      } else plan(intervalMs);
    });
  };

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      woken = false;
      unsubscribe = calendar.config.changeEvents.onQueued(() => plan(0));
      plan(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      unsubscribe?.();
      await running;
    },
  };
}

/** What comes after a failed attempt, in words. */
export function describeNextAttempt(f: WebhookFailure): string {
  if (f.outcome === 'retry') return `next attempt ${new Date(f.nextAttemptAt!).toISOString()}`;
  return f.outcome === 'failed' ? 'no attempts left: the delivery failed' : 'the endpoint answered 410 Gone and was disabled';
}

/** A settlement that leaves a delivery as it was (and drops the lease). */
function unchanged(d: WebhookDelivery) {
  return { state: d.state, attempts: d.attempts, nextAttemptAt: d.nextAttemptAt, lastAttemptAt: d.lastAttemptAt, lastStatus: d.lastStatus, lastError: d.lastError };
}

/** `Retry-After` in ms from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
