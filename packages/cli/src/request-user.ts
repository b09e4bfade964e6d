// Who each request turned out to be, for its access log line: the authentication hook of the
// API handler writes the user's id into the request's context (access-log.ts), reached from
// the handler's request through the node request it was made from.
import { anonymousWithoutAuthorization, type Authenticate, type HandlerRequest } from '@evcal/http';
import { incomingMessageOf } from '@evcal/http/node';
import { requestContextOf, type RequestContext } from './access-log';

/** What the access log knows of the request the API handler is serving. */
export function contextOf(request: HandlerRequest): RequestContext | undefined {
  const incoming = incomingMessageOf(request);
  return incoming && requestContextOf(incoming);
}

/** `accountCredentials` telling the access log who the user is (anonymous without an Authorization header, as it is). */
export function noteUser(authenticate: Authenticate): Authenticate {
  return anonymousWithoutAuthorization(async (request: HandlerRequest) => {
    const principal = await authenticate(request);
    const context = contextOf(request);
    if (principal && context) context.userId = principal.id;
    return principal;
  });
}
