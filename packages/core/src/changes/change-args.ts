// The arguments of `GET /changes` (docs/sync.md): what the operation parses and what
// @evcal/http documents (calendar/operation-declarations.ts).
import { arg, type ArgInput, type ArgSpecs } from '../kernel/args';
import { nonEmptyString, positiveInt } from '../kernel/wire-schemas';

/** The most changes one page reads. */
export const MAX_CHANGES_PER_PAGE = 500;

export const CHANGES_ARGS = {
  since: arg({
    schema: nonEmptyString,
    description: 'The next_token of your last call; without it the answer is a token for now (list everything first)',
    type: 'string',
  }),
  per_page: arg({ schema: positiveInt, default: 100, description: `The most changes to read (at most ${MAX_CHANGES_PER_PAGE})`, type: 'integer' }),
} satisfies ArgSpecs;

/** What `calendar.changes.list` takes (docs/sync.md). */
export type ChangesInput = ArgInput<typeof CHANGES_ARGS>;
