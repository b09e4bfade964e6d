const api = '/api/cal/events/v1';

export default function Home() {
  return (
    <main>
      <h1>evcal on Next.js</h1>
      <p>
        The calendar API is served by the catch-all route <code>app/api/[...path]/route.ts</code>:
      </p>
      <ul>
        <li><a href={`${api}/events`}>{`${api}/events`}</a>: the upcoming events</li>
        <li><a href={`${api}/events/10`}>{`${api}/events/10`}</a>: one event</li>
        <li><a href={`${api}/doc`}>{`${api}/doc`}</a>: the OpenAPI document</li>
      </ul>
    </main>
  );
}
