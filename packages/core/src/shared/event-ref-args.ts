// An argument naming an event (venue/organizer `event`, term `post`/`event`, `post_parent`):
// it must be an event the caller may read, so lists never confirm a hidden event exists.
import { INVALID_PARAMETER } from '../domain/errors';
import { arg } from '../kernel/args';
import { positiveInt } from '../kernel/wire-schemas';

export const eventIdArg = arg({
  schema: positiveInt,
  description: 'An event ID',
  type: 'integer',
  validate: async (id, ctx) => {
    const event = await ctx.storage.events.get(id);
    return event && ctx.permissions.canRead('event', event) ? undefined : INVALID_PARAMETER;
  },
});
