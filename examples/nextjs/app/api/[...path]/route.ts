// The whole evcal API as one catch-all route: app/api/[...path] answers /api/cal/events/v1/….
import { bearerTokens, createFetchHandler } from '@evcal/http';
import { toNextHandlers } from '@evcal/http/next';
import { createDemoCalendar } from '../../../src/calendar';

const calendar = await createDemoCalendar();
const handler = createFetchHandler(calendar, {
  basePath: '/api', // where this route lives, so links in responses point under /api
  // Demo credentials: `Authorization: Bearer demo-admin-token` acts as an administrator.
  authenticate: bearerTokens({ 'demo-admin-token': { id: 1, role: 'administrator' } }),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = toNextHandlers(handler);
