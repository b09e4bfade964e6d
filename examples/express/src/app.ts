// evcal mounted under /api in an Express 5 app, next to the app's own routes and body parser.
import express, { type Express } from 'express';
import { bearerTokens, createFetchHandler } from '@evcal/http';
import { toNodeHandler } from '@evcal/http/node';
import { createDemoCalendar } from './calendar';

export async function createApp(): Promise<Express> {
  const calendar = await createDemoCalendar();
  const handler = createFetchHandler(calendar, {
    basePath: '/api', // the mount path below, so links in responses point under /api
    // Demo credentials: `Authorization: Bearer demo-admin-token` acts as an administrator.
    authenticate: bearerTokens({ 'demo-admin-token': { id: 1, role: 'administrator' } }),
  });

  const app = express();
  app.use(express.json()); // the app's parser: evcal takes the JSON bodies it has already parsed
  app.post('/feedback', (req, res) => {
    res.status(201).json({ received: req.body });
  });
  app.use('/api', toNodeHandler(handler)); // the API at /api/cal/events/v1
  return app;
}
