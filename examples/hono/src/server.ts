import { serve } from '@hono/node-server';
import { createApp } from './app';

const port = Number(process.env.PORT ?? 8080);
const app = await createApp();
serve({ fetch: app.fetch, port }, () => {
  console.log(`evcal listening: http://localhost:${port}/cal/events/v1/events`);
});
