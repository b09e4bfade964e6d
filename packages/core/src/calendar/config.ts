// createCalendar's options resolved: checked, defaults filled in, and the services every
// operation shares made (the scheduler, the caches, the horizon keeper, the change log's
// pruner). The composition root (calendar.ts) calls it once per calendar.
import { createScheduler } from '../kernel/scheduler';
import { DEFAULT_ROLES } from '../auth/capabilities';
import { DEFAULT_CURRENCY } from '../domain/cost';
import { MAX_ID } from '../model/records';
import { resolveZone } from '../time/zone';
import { isAllowedUrl } from '../kernel/wire-schemas';
import { createRenderCache } from '../kernel/render-cache';
import { createListBudget } from '../kernel/list-budget';
import { createPruner } from '../changes/change-retention';
import { createHorizonKeeper } from '../events/series-horizon';
import { recordingStorage } from '../changes/change-recorder';
import { createChangeEvents } from '../changes/change-events';
import type { CalendarConfig } from '../kernel/context';
import type { CalendarOptions, ImageProvider } from '../kernel/options';

/** Accepts absolute http(s) URLs as given; refuses ids (there is no media library). */
export const urlImages: ImageProvider = {
  resolve: (ref) => (typeof ref === 'string' && /^https?:/i.test(ref) && isAllowedUrl(ref) ? { url: ref } : undefined),
};

export function resolveConfig(options: CalendarOptions): CalendarConfig {
  const timezone = options.timezone ?? 'UTC';
  const zone = resolveZone(timezone);
  if (!zone) throw new TypeError(`evcal: unknown time zone "${timezone}"`);
  const clock = options.now ?? Date.now;
  const defaultPerPage = options.limits?.defaultPerPage ?? 10;
  const maxPerPage = options.limits?.maxPerPage ?? 50;
  for (const [name, n] of [['defaultPerPage', defaultPerPage], ['maxPerPage', maxPerPage]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new TypeError(`evcal: limits.${name} must be a positive integer`);
  }
  const ical = {
    maxEvents: options.ical?.maxEvents ?? 10_000,
    uid: options.ical?.uid ?? 'stable',
    name: options.ical?.name,
    refreshMinutes: options.ical?.refreshMinutes ?? 60,
  };
  for (const [name, n] of [['maxEvents', ical.maxEvents], ['refreshMinutes', ical.refreshMinutes]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new TypeError(`evcal: ical.${name} must be a positive integer`);
  }
  if (ical.uid !== 'stable' && ical.uid !== 'reference') throw new TypeError('evcal: ical.uid must be "stable" or "reference"');
  const siteUrl = (options.siteUrl ?? 'http://localhost').replace(/\/+$/, '');
  const recurrence = {
    horizonMonths: options.recurrence?.horizonMonths ?? 24,
    maxHorizonMonths: options.recurrence?.maxHorizonMonths ?? 120,
    maxOccurrences: options.recurrence?.maxOccurrences ?? 1000,
  };
  for (const [name, n] of Object.entries(recurrence)) {
    if (!Number.isInteger(n) || n < (name === 'horizonMonths' ? 0 : 1)) throw new TypeError(`evcal: recurrence.${name} must be a ${name === 'horizonMonths' ? 'non-negative' : 'positive'} integer`);
  }
  if (recurrence.maxHorizonMonths < recurrence.horizonMonths) throw new TypeError('evcal: recurrence.maxHorizonMonths must be at least recurrence.horizonMonths');
  const retentionDays = options.changes?.retentionDays ?? 30;
  if (!(retentionDays > 0) || !Number.isFinite(retentionDays)) throw new TypeError('evcal: changes.retentionDays must be a positive number');
  const ttlSeconds = options.idempotency?.ttlSeconds ?? 86_400;
  if (!(ttlSeconds > 0) || !Number.isFinite(ttlSeconds)) throw new TypeError('evcal: idempotency.ttlSeconds must be a positive number');
  const now = () => {
    const t = clock();
    return typeof t === 'number' ? t : t.getTime();
  };
  const onError = options.onError ?? ((error: unknown) => console.error('evcal:', error));
  const changeEvents = createChangeEvents(onError);
  // Every write is recorded in the change log (changes/change-recorder.ts).
  const storage = recordingStorage(options.storage, { now, committed: (entries, deliveries) => changeEvents.emit(entries, deliveries) });
  const changeRetentionMs = retentionDays * 86_400_000;
  const keepsLists = options.renderCache !== 0;
  return {
    storage,
    timezone,
    zone,
    now,
    defaultPerPage,
    maxPerPage,
    roles: options.roles ?? DEFAULT_ROLES,
    authorize: options.authorize,
    users: options.users ?? { exists: (id) => Number.isInteger(id) && id > 0 && id <= MAX_ID },
    images: options.images ?? urlImages,
    tickets: options.tickets,
    geoRadiusKm: options.geoRadiusKm ?? 50,
    siteUrl,
    apiRoot: (options.apiRoot ?? siteUrl).replace(/\/+$/, ''),
    currency: { ...DEFAULT_CURRENCY, ...options.currency },
    renderCache: createRenderCache(options.renderCache ?? 5000),
    listCache: { plans: keepsLists ? 512 : 0, budget: createListBudget(keepsLists ? options.listCacheBytes ?? 16 * 1024 * 1024 : 0) },
    publishDue: createScheduler({ storage, now }),
    pruneDue: createPruner({ storage, now, changeRetentionMs, onError }),
    ical,
    recurrence,
    horizon: createHorizonKeeper({ recurrence }),
    changeRetentionMs,
    idempotencyTtlMs: ttlSeconds * 1000,
    changeEvents,
    onError,
    webhooks: { allowPrivateAddresses: options.webhooks?.allowPrivateAddresses ?? false, lookup: options.webhooks?.lookup },
  };
}
