// evcal as a Hono route: Hono hands over the web Request, evcal answers with a web Response.
import { Hono } from 'hono';
import { bearerTokens, createFetchHandler } from '@evcal/http';
import { createDemoCalendar } from './calendar';

export async function createApp(): Promise<Hono> {
  const calendar = await createDemoCalendar();
  const handler = createFetchHandler(calendar, {
    // Demo credentials: `Authorization: Bearer demo-admin-token` acts as an administrator.
    authenticate: bearerTokens({ 'demo-admin-token': { id: 1, role: 'administrator' } }),
  });

  const app = new Hono();
  app.get('/health', (c) => c.json({ ok: true }));
  app.all('/cal/events/v1/*', (c) => handler(c.req.raw));
  return app;
}
