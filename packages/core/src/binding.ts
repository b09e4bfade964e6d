// @evcal/core/binding: what a transport binding (@evcal/http) builds on besides the app
// surface: the operations' argument declarations (for its route table, namespace index and
// OpenAPI document), the validators of lists and the hashing of entity tags, parameters shared by the requests to one address, and the
// placeholders of messages (for catalogues of translations).

export type { ArgSpec, ArgSpecs, ArgContext, ArgValues, ArgInput } from './input/args';
export { eventListArgs, eventWriteArgs, eventReadArgs, eventPathIdArg, eventSlugArg } from './operations/event-args';
export { linkedPostWriteArgs, linkedPostListArgs, linkedPostIdArg, linkedPostSlugArg, readArgs } from './operations/linked-post-args';
export { termIdArg, termListArgs, termWriteArgs } from './operations/term-args';
export { changesArgs } from './changes/change-feed';
// Every operation's arguments and result, declared once (the route table, the namespace index and /doc read them).
export { OPERATIONS } from './operations/operation-declarations';
export type { OperationDeclaration, OperationName, RepresentationName } from './operations/operation-declarations';
export { webhookIdArg, webhookWriteArgs } from './changes/webhook-endpoints';
export { listValidator, hash as hashText } from './operations/validators';
export { placeholdersOf } from './messages';
export { SHARED_SCHEMAS } from './input/wire-schemas';
export { sharedArgs } from './operations/plan-cache';
export { invalidKey as invalidIdempotencyKey } from './operations/idempotency';
