// What each category and tag operation takes, typed from the same argument declarations its validation runs
// (kernel/args.ts): a value of the wrong type is a compile-time error in an app, and a 400
// over HTTP. Every argument is optional in these types (the declarations say at run time which
// are required); path parameters (`id`, `slug`) are arguments like the others.
import type { ArgInput } from '../kernel/args';
import { termIdArg, termListArgs, termWriteArgs } from './term-args';

export type TermListInput = ArgInput<ReturnType<typeof termListArgs>>;
export type TermGetInput = ArgInput<{ id: ReturnType<typeof termIdArg> }>;
export type TermCreateInput = ArgInput<ReturnType<typeof termWriteArgs>>;
export type TermUpdateInput = TermCreateInput & TermGetInput;
