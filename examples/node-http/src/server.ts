import { createApp } from './app';

const port = Number(process.env.PORT ?? 8080);
const server = await createApp();
server.listen(port, () => {
  console.log(`evcal listening: http://localhost:${port}/cal/events/v1/events`);
});
