// evcal as a Fastify 5 route: requests under /cal/events/v1 become web Requests for the fetch
// handler, and Fastify sends the web Response it returns (status, headers and body).
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { bearerTokens, createFetchHandler } from '@evcal/http';
import { createDemoCalendar } from './calendar';

export async function createApp(): Promise<FastifyInstance> {
  const calendar = await createDemoCalendar();
  const handler = createFetchHandler(calendar, {
    // Demo credentials: `Authorization: Bearer demo-admin-token` acts as an administrator.
    authenticate: bearerTokens({ 'demo-admin-token': { id: 1, role: 'administrator' } }),
  });

  const app = Fastify();
  app.get('/health', async () => ({ ok: true })); // the app's own routes keep Fastify's parsers

  // An encapsulated plugin: its parser change applies to the evcal routes only.
  await app.register(async (api) => {
    // evcal reads bodies itself (JSON, URL-encoded and multipart forms): give it the raw bytes.
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    const forward = (request: FastifyRequest) => handler(toWebRequest(request));
    api.all('/cal/events/v1', forward); // the namespace index
    api.all('/cal/events/v1/*', forward); // every route below it
  });
  return app;
}

/** The Fastify request as a web Request: absolute URL, headers and the raw body. */
function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) headers.append(name, v);
  }
  const body = request.body instanceof Buffer ? request.body : undefined;
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: request.method, headers, body });
}
