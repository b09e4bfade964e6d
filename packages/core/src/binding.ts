// @evcal/core/binding: what a transport binding (@evcal/http) builds on besides the app
// surface: the operations' argument declarations (for its route table, namespace index and
// OpenAPI document), the validators of lists and the hashing of entity tags, parameters shared by the requests to one address, and the
// placeholders of messages (for catalogues of translations).

export type { ArgSpec, ArgSpecs, ArgContext, ArgValues, ArgInput, WireArgs } from './kernel/args';
export { eventListArgs, eventWriteArgs, eventReadArgs, eventPathIdArg, eventSlugArg } from './events/event-args';
export { linkedPostWriteArgs, linkedPostListArgs, linkedPostIdArg, linkedPostSlugArg, readArgs } from './linked-posts/linked-post-args';
export { termIdArg, termListArgs, termWriteArgs } from './terms/term-args';
export { changesArgs } from './changes/change-feed';
// Every operation's arguments and result, declared once (the route table, the namespace index and /doc read them).
export { OPERATIONS } from './calendar/operation-declarations';
export type { OperationDeclaration, OperationName, RepresentationName } from './calendar/operation-declarations';
export { webhookIdArg, webhookWriteArgs } from './changes/webhook-endpoints';
export { listValidator, hash as hashText } from './kernel/validators';
export { placeholdersOf } from './domain/messages';
export { SHARED_SCHEMAS } from './kernel/wire-schemas';
export { sharedArgs } from './kernel/plan-cache';
export { invalidKey as invalidIdempotencyKey } from './kernel/idempotency';
