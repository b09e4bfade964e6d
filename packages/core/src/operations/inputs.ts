// What each operation takes, typed from the same argument declarations its validation runs
// (kernel/args.ts): a value of the wrong type is a compile-time error in an app, and a 400
// over HTTP. Every argument is optional in these types (the declarations say at run time which
// are required); path parameters (`id`, `slug`) are arguments like the others.
import type { ArgInput } from '../kernel/args';
import { eventListArgs, eventPathIdArg, eventReadArgs, eventSlugArg, eventWriteArgs, scopeArg } from './event-args';
import {
  linkedPostIdArg, linkedPostListArgs, linkedPostSlugArg, readArgs, type OrganizerWriteArgs, type VenueWriteArgs,
} from './linked-post-args';
import { passwordArg } from './shared-args';
import { termIdArg, termListArgs, termWriteArgs } from './term-args';

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

type LinkedId = { id: ReturnType<typeof linkedPostIdArg> };
type LinkedSlug = { slug: ReturnType<typeof linkedPostSlugArg> };

export type LinkedPostListInput = ArgInput<ReturnType<typeof linkedPostListArgs>>;
export type LinkedPostGetInput = ArgInput<LinkedId & typeof readArgs>;
export type LinkedPostGetBySlugInput = ArgInput<LinkedSlug & typeof readArgs>;
export type VenueWriteInput = ArgInput<VenueWriteArgs>;
export type OrganizerWriteInput = ArgInput<OrganizerWriteArgs>;
export type LinkedPostIdInput = ArgInput<LinkedId>;
export type LinkedPostSlugInput = ArgInput<LinkedSlug>;

export type TermListInput = ArgInput<ReturnType<typeof termListArgs>>;
export type TermGetInput = ArgInput<{ id: ReturnType<typeof termIdArg> }>;
export type TermCreateInput = ArgInput<ReturnType<typeof termWriteArgs>>;
export type TermUpdateInput = TermCreateInput & TermGetInput;
