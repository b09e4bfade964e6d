import { createApp } from './app';

const port = Number(process.env.PORT ?? 8080);
const app = await createApp();
app.listen(port, () => {
  console.log(`evcal listening: http://localhost:${port}/api/cal/events/v1/events`);
});
