// What each event operation takes, typed from the same argument declarations its validation runs
// (kernel/args.ts): a value of the wrong type is a compile-time error in an app, and a 400
// over HTTP. Every argument is optional in these types (the declarations say at run time which
// are required); path parameters (`id`, `slug`) are arguments like the others.
import type { ArgInput } from '../kernel/args';
import { eventListArgs, eventPathIdArg, eventReadArgs, eventSlugArg, eventWriteArgs, scopeArg } from './event-args';
import { passwordArg } from '../shared/shared-args';

type Id = { id: typeof eventPathIdArg };
type Slug = { slug: typeof eventSlugArg };
/** `scope` of writes to an occurrence of a series (docs/recurrence.md). */
type Scope = { scope: typeof scopeArg };

export type EventListInput = ArgInput<typeof eventListArgs>;
export type EventGetInput = ArgInput<Id & typeof eventReadArgs>;
export type EventGetBySlugInput = ArgInput<Slug & typeof eventReadArgs>;
export type EventCreateInput = ArgInput<ReturnType<typeof eventWriteArgs>>;
/** POST/PUT/PATCH on `/events/{id}`: `password` unlocks a protected event for the answer. */
export type EventUpdateInput = EventCreateInput & ArgInput<Id & Scope & { password: typeof passwordArg }>;
export type EventUpdateBySlugInput = Omit<EventCreateInput, 'slug'> & ArgInput<Slug & Scope>;
export type EventDeleteInput = ArgInput<Id & Scope>;
export type EventDeleteBySlugInput = ArgInput<Slug & Scope>;
