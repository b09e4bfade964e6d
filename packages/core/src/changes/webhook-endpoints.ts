// Webhook endpoints: registered, read, changed and removed by administrators (the
// `manage_options` capability). Each has a `whsec_` signing secret (generated unless given),
// a filter of event types, and can be disabled (by hand, or by the sender when the endpoint
// answers 410 Gone). An endpoint on a loopback, private or link-local address is refused unless
// the calendar allows private addresses (webhook-addresses.ts), and each is shown with its
// delivery status: its last attempt, status and error, and the deliveries waiting for it.
import * as v from 'valibot';
import { requirePermission, beginCall, type Call, type CallContext } from '../kernel/call';
import type { CalendarConfig } from '../kernel/context';
import { runWrite } from '../kernel/write';
import { CalendarError, invalidParam } from '../domain/errors';
import { parseArgs, type ArgInput } from '../kernel/args';
import { msg } from '../domain/messages';
import type { WebhookEndpointJson, WebhookEndpointListJson } from '../represent/change-schemas';
import type { WebhookEndpointRecord, WebhookEndpointStatus } from '../storage/change-store';
import { webhookUrlRefusal } from './webhook-addresses';
import { endpointUrl, WEBHOOK_ARGS, webhookIdArg, webhookWriteArgs } from './webhook-args';

export { webhookIdArg, webhookWriteArgs };

export type WebhookCreateInput = ArgInput<ReturnType<typeof webhookWriteArgs>>;
export type WebhookIdInput = ArgInput<{ id: typeof webhookIdArg }>;
export type WebhookUpdateInput = WebhookCreateInput & WebhookIdInput;

/** The operations of `/webhooks`, administrators only. */
export interface WebhookOperations {
  /** Takes no parameters; each endpoint with its delivery status. */
  list(input?: Readonly<Record<never, never>>, ctx?: CallContext): Promise<WebhookEndpointListJson>;
  /** Registers an endpoint; the answer carries its secret. */
  create(input: WebhookCreateInput, ctx?: CallContext): Promise<WebhookEndpointJson>;
  /** One endpoint, with its secret. */
  get(input: WebhookIdInput, ctx?: CallContext): Promise<WebhookEndpointJson>;
  /** Only the fields sent change. */
  update(input: WebhookUpdateInput, ctx?: CallContext): Promise<WebhookEndpointJson>;
  /** Removes the endpoint and the deliveries still waiting for it; returns it as it was. */
  delete(input: WebhookIdInput, ctx?: CallContext): Promise<WebhookEndpointJson>;
}

export function webhookOperations(config: CalendarConfig): WebhookOperations {
  const admin = (ctx: CallContext | undefined): Call => {
    const call = beginCall(config, ctx);
    requirePermission(call, call.permissions.can('manage_options'));
    return call;
  };
  /** Refuses a URL the sender would refuse (400 naming the rule and how to allow private addresses). */
  const checkAddress = async (url: string): Promise<void> => {
    if (config.webhooks.allowPrivateAddresses) return;
    const reason = await webhookUrlRefusal(url, config.webhooks.lookup);
    if (reason) {
      throw invalidParam('url', msg('{reason}: webhooks are delivered to public addresses only. To allow private addresses, start evcal serve with --webhook-allow-private (evcal webhooks add takes it too), or set the calendar\'s webhooks.allowPrivateAddresses.', { reason }));
    }
  };
  const statusOf = async (call: Call, id: string): Promise<WebhookEndpointStatus | undefined> =>
    (await call.storage.webhooks.statuses()).find((s) => s.endpointId === id);
  const find = async (call: Call, id: string): Promise<WebhookEndpointRecord> => {
    const found = await call.storage.webhooks.getEndpoint(id);
    if (!found) throw new CalendarError('webhook_not_found', msg('No webhook endpoint has the ID {id}.', { id }), { details: { id } });
    return found;
  };
  return {
    async list(_input, ctx) {
      const call = admin(ctx);
      const [endpoints, statuses] = await Promise.all([call.storage.webhooks.listEndpoints(), call.storage.webhooks.statuses()]);
      const byId = new Map(statuses.map((s) => [s.endpointId, s]));
      return { webhooks: endpoints.map((e) => endpointJson(e, byId.get(e.id), call.now, false)) };
    },
    async create(input, ctx) {
      const call = admin(ctx);
      const { values } = await parseArgs(WEBHOOK_ARGS.create, input, call.args);
      await checkAddress(values.url!);
      const endpoint: WebhookEndpointRecord = {
        id: `ep_${randomText(24)}`,
        url: values.url!,
        secret: values.secret ?? `whsec_${btoa(String.fromCharCode(...randomBytes(32)))}`,
        types: [...new Set(values.types ?? [])],
        description: values.description ?? '',
        enabled: values.enabled ?? true,
        disabledReason: values.enabled === false ? 'manual' : null,
        created: call.now,
        updated: call.now,
      };
      await runWrite(call, (c) => c.storage.webhooks.insertEndpoint(endpoint));
      return endpointJson(endpoint, undefined, call.now, true);
    },
    async get(input, ctx) {
      const call = admin(ctx);
      const { values } = await parseArgs(WEBHOOK_ARGS.get, input, call.args);
      const endpoint = await find(call, values.id!);
      return endpointJson(endpoint, await statusOf(call, endpoint.id), call.now, true);
    },
    async update(input, ctx) {
      const call = admin(ctx);
      // Checked before the write: a name is resolved, which no transaction should wait for.
      if (typeof input.url === 'string' && v.is(endpointUrl, input.url)) await checkAddress(input.url);
      const updated = await runWrite(call, async (c) => {
        const { values } = await parseArgs(WEBHOOK_ARGS.update, input, c.args);
        const current = await find(c, values.id!);
        const enabled = values.enabled ?? current.enabled;
        const next: WebhookEndpointRecord = {
          ...current,
          ...(values.url !== undefined ? { url: values.url } : {}),
          ...(values.types !== undefined ? { types: [...new Set(values.types)] } : {}),
          ...(values.description !== undefined ? { description: values.description } : {}),
          ...(values.secret !== undefined ? { secret: values.secret } : {}),
          enabled,
          disabledReason: enabled ? null : values.enabled === false ? 'manual' : current.disabledReason,
          updated: c.now,
        };
        await c.storage.webhooks.replaceEndpoint(next);
        return next;
      });
      return endpointJson(updated, await statusOf(call, updated.id), call.now, true);
    },
    async delete(input, ctx) {
      const call = admin(ctx);
      const removed = await runWrite(call, async (c) => {
        const { values } = await parseArgs(WEBHOOK_ARGS.delete, input, c.args);
        const current = await find(c, values.id!);
        await c.storage.webhooks.deleteEndpoint(current.id);
        return current;
      });
      return endpointJson(removed, undefined, call.now, false);
    },
  };
}

/** `now`: deliveries due already (new ones are due at once, at 0) are shown due now. */
function endpointJson(e: WebhookEndpointRecord, status: WebhookEndpointStatus | undefined, now: number, withSecret: boolean): WebhookEndpointJson {
  const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
  return {
    id: e.id, url: e.url, description: e.description, types: [...e.types], enabled: e.enabled, disabled_reason: e.disabledReason,
    created: iso(e.created)!, updated: iso(e.updated)!,
    delivery: {
      last_attempt: iso(status?.lastAttemptAt), last_status: status?.lastStatus ?? null, last_error: status?.lastError ?? null,
      consecutive_failures: status?.consecutiveFailures ?? 0, waiting: status?.waiting ?? 0, failed: status?.failed ?? 0,
      next_attempt: iso(status?.nextAttemptAt === null || status?.nextAttemptAt === undefined ? null : Math.max(status.nextAttemptAt, now)),
    },
    ...(withSecret ? { secret: e.secret } : {}),
  };
}

function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

/** Lowercase letters and digits. */
function randomText(n: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
}
