// `evcal webhooks`: register, list, enable, disable and remove webhook endpoints in a storage,
// as an administrator would through the API (docs/webhooks.md), each listed with how its
// deliveries are going. `evcal serve` on the same storage delivers to them. An endpoint on a
// private address is refused unless allowed, as `evcal serve` refuses to deliver to it.
import { createCalendar, isCalendarError, type Principal, type WebhookEndpointJson } from '@evcal/core';
import { lookupAddresses } from '@evcal/http';
import { openStorage } from './storage-url';

export interface WebhooksCommandOptions {
  readonly action: 'list' | 'add' | 'remove' | 'enable' | 'disable';
  readonly storage: string;
  /** add: the URL; remove, enable, disable: the endpoint id. */
  readonly target?: string;
  readonly types?: readonly string[];
  readonly description?: string;
  readonly secret?: string;
  /** add: accept a loopback, private or link-local address (`--webhook-allow-private`, as serve's). @default false */
  readonly allowPrivateAddresses?: boolean;
  readonly json: boolean;
}

/** The command acts with the administrator capability of managing endpoints. */
const OPERATOR: Principal = { id: 0, capabilities: ['manage_options'] };

/** Runs the action; resolves with the exit code (1 when the calendar refused it). */
export async function webhooksCommand(options: WebhooksCommandOptions, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const storage = await openStorage(options.storage);
  try {
    const webhooks = createCalendar({ storage, webhooks: { allowPrivateAddresses: options.allowPrivateAddresses ?? false, lookup: lookupAddresses } }).webhooks;
    const ctx = { principal: OPERATOR };
    const id = options.target ?? '';
    let shown: WebhookEndpointJson[];
    switch (options.action) {
      case 'list':
        shown = (await webhooks.list({}, ctx)).webhooks;
        break;
      case 'add':
        shown = [await webhooks.create({
          url: options.target,
          ...(options.types ? { types: [...options.types] } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
          ...(options.secret !== undefined ? { secret: options.secret } : {}),
        }, ctx)];
        break;
      case 'remove':
        shown = [await webhooks.delete({ id }, ctx)];
        break;
      case 'enable':
      case 'disable':
        shown = [await webhooks.update({ id, enabled: options.action === 'enable' }, ctx)];
        break;
    }
    out.write(options.json ? `${JSON.stringify(options.action === 'list' ? shown : shown[0], null, 2)}\n` : shown.map((e) => describe(e, options.action)).join(''));
    return 0;
  } catch (error) {
    if (!isCalendarError(error)) throw error;
    const params = error.details.params as Record<string, string> | undefined;
    // Each parameter, with the rule it broke when that is ours to tell (the reference's plain
    // "Invalid parameter." and its coded type errors say nothing more than its name).
    const coded = (error.details.details ?? {}) as Record<string, unknown>;
    const why = params && typeof params === 'object' && !Array.isArray(params)
      ? ` (${Object.entries(params).map(([name, text]) => (text === 'Invalid parameter.' || name in coded ? name : `${name}: ${text}`)).join('; ')})`
      : '';
    err.write(`evcal webhooks ${options.action}: ${error.message}${why}\n`);
    return 1;
  } finally {
    await storage.close();
  }
}

function describe(e: WebhookEndpointJson, action: WebhooksCommandOptions['action']): string {
  const state = e.enabled ? 'enabled' : `disabled (${e.disabled_reason ?? 'manual'})`;
  const lines = [
    `${action === 'remove' ? 'removed ' : ''}${e.id}  ${e.url}  ${state}`,
    `  types: ${e.types.length ? e.types.join(', ') : 'all'}${e.description ? `\n  description: ${e.description}` : ''}`,
  ];
  if (action === 'list') lines.push(`  deliveries: ${deliveryLine(e.delivery)}`);
  if (action === 'add' && e.secret) lines.push(`  secret: ${e.secret}  (verify webhook-signature with it; see docs/webhooks.md)`);
  return `${lines.join('\n')}\n`;
}

/** "3 waiting (next 2026-11-22T12:05:00.000Z), 0 failed; last attempt …: HTTP 503, 2 failures in a row". */
function deliveryLine(d: WebhookEndpointJson['delivery']): string {
  const outbox = `${d.waiting} waiting${d.next_attempt ? ` (next ${d.next_attempt})` : ''}, ${d.failed} failed`;
  if (!d.last_attempt) return `${outbox}; no attempt yet`;
  const result = d.last_error === null ? `delivered (HTTP ${d.last_status})` : `${d.last_error}, ${d.consecutive_failures} failure${d.consecutive_failures === 1 ? '' : 's'} in a row`;
  return `${outbox}; last attempt ${d.last_attempt}: ${result}`;
}
