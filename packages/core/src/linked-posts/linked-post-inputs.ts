// What each venue and organizer operation takes, typed from the same argument declarations its validation runs
// (kernel/args.ts): a value of the wrong type is a compile-time error in an app, and a 400
// over HTTP. Every argument is optional in these types (the declarations say at run time which
// are required); path parameters (`id`, `slug`) are arguments like the others.
import type { ArgInput } from '../kernel/args';
import {
  linkedPostIdArg, linkedPostListArgs, linkedPostSlugArg, readArgs, type OrganizerWriteArgs, type VenueWriteArgs,
} from './linked-post-args';

type LinkedId = { id: ReturnType<typeof linkedPostIdArg> };
type LinkedSlug = { slug: ReturnType<typeof linkedPostSlugArg> };

export type LinkedPostListInput = ArgInput<ReturnType<typeof linkedPostListArgs>>;
export type LinkedPostGetInput = ArgInput<LinkedId & typeof readArgs>;
export type LinkedPostGetBySlugInput = ArgInput<LinkedSlug & typeof readArgs>;
export type VenueWriteInput = ArgInput<VenueWriteArgs>;
export type OrganizerWriteInput = ArgInput<OrganizerWriteArgs>;
export type LinkedPostIdInput = ArgInput<LinkedId>;
export type LinkedPostSlugInput = ArgInput<LinkedSlug>;
