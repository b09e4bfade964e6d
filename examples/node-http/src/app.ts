// evcal on a plain node:http server: the API answers at /cal/events/v1.
import { createServer, type Server } from 'node:http';
import { bearerTokens, createFetchHandler } from '@evcal/http';
import { toNodeHandler } from '@evcal/http/node';
import { createDemoCalendar } from './calendar';

export async function createApp(): Promise<Server> {
  const calendar = await createDemoCalendar();
  const handler = createFetchHandler(calendar, {
    // Demo credentials: `Authorization: Bearer demo-admin-token` acts as an administrator.
    authenticate: bearerTokens({ 'demo-admin-token': { id: 1, role: 'administrator' } }),
  });
  return createServer(toNodeHandler(handler));
}
