// `evcal webhooks`: register, list, enable, disable and remove webhook endpoints in a storage,
// as an administrator would through the API (docs/webhooks.md). `evcal serve` on the same
// storage delivers to them.
import { createCalendar, isCalendarError, type Principal, type WebhookEndpointJson } from '@evcal/core';
import { openStorage } from './storage-url';

export interface WebhooksCommandOptions {
  readonly action: 'list' | 'add' | 'remove' | 'enable' | 'disable';
  readonly storage: string;
  /** add: the URL; remove, enable, disable: the endpoint id. */
  readonly target?: string;
  readonly types?: readonly string[];
  readonly description?: string;
  readonly secret?: string;
  readonly json: boolean;
}

/** The command acts with the administrator capability of managing endpoints. */
const OPERATOR: Principal = { id: 0, capabilities: ['manage_options'] };

/** Runs the action; resolves with the exit code (1 when the calendar refused it). */
export async function webhooksCommand(options: WebhooksCommandOptions, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  const storage = await openStorage(options.storage);
  try {
    const webhooks = createCalendar({ storage }).webhooks;
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
    err.write(`evcal webhooks ${options.action}: ${error.message}${params && typeof params === 'object' && !Array.isArray(params) ? ` (${Object.keys(params).join(', ')})` : ''}\n`);
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
  if (action === 'add' && e.secret) lines.push(`  secret: ${e.secret}  (verify webhook-signature with it; see docs/webhooks.md)`);
  return `${lines.join('\n')}\n`;
}
