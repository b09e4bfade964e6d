// The arguments of the webhook endpoint operations (docs/webhooks.md): what they parse and
// what @evcal/http documents (calendar/operation-declarations.ts).
import * as v from 'valibot';
import { arg, type ArgSpecs } from '../kernel/args';
import { enumList, textOfLength, withRule, wpBoolean } from '../kernel/wire-schemas';
import { msg } from '../domain/messages';
import { EVENT_TYPES } from './change-envelope';

/** An absolute http(s) URL without credentials (the secret signs; URLs end up in logs). */
export const endpointUrl = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.metadata({ pattern: '^[hH][tT][tT][pP][sS]?://[^\\s/?#@]+(?:[/?#]\\S*)?$' }),
  v.check((s) => {
    try {
      const url = new URL(s);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '' && url.hostname !== '';
    } catch {
      return false;
    }
  }),
);

/** `whsec_` and the base64 of a key of 24 to 64 bytes. */
const secretValue = v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/), v.check((s) => {
  try {
    const bytes = atob(s.slice(6)).length;
    return bytes >= 24 && bytes <= 64;
  } catch {
    return false;
  }
}));

const typesArg = arg({
  schema: enumList(EVENT_TYPES),
  description: 'The event types to deliver (such as event.created or venue.updated), as a list or comma-separated string; empty or absent: every type',
});

export const webhookIdArg = arg({ schema: textOfLength(1, 64), required: true, description: 'The endpoint ID (ep_…)', type: 'string' });

export function webhookWriteArgs(create: boolean) {
  return {
    url: arg({ schema: withRule(endpointUrl, msg('{param} must be an absolute http or https URL without a user name or password.')), required: create, description: 'Where deliveries are POSTed: an absolute http(s) URL', type: 'string' }),
    types: typesArg,
    description: arg({ schema: textOfLength(0, 500), description: 'What the endpoint is for', type: 'string' }),
    secret: arg({ schema: withRule(secretValue, msg('{param} must be whsec_ followed by the base64 of a key of 24 to 64 bytes.')), description: 'The signing secret, whsec_ and a base64 key of 24 to 64 bytes; generated when absent', type: 'string' }),
    enabled: arg({ schema: wpBoolean, description: 'Whether deliveries are made (enabling clears the reason it was disabled)', type: 'boolean' }),
  } satisfies ArgSpecs;
}

const webhookId = { id: webhookIdArg };

/** The arguments of each webhook endpoint operation. */
export const WEBHOOK_ARGS = {
  list: {},
  create: webhookWriteArgs(true),
  get: webhookId,
  update: { ...webhookId, ...webhookWriteArgs(false) },
  delete: webhookId,
} as const satisfies Record<string, ArgSpecs>;
