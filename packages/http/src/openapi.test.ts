// /doc documents the arguments the operations parse: the route table holds no list of its own.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';

type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
};
const doc = openApiDocument('http://cal.test/cal/events/v1') as { paths: Record<string, Record<string, Operation>> };

/** The names of an operation's parameters in `where` (`path`, `query`) or in its JSON body (`body`). */
function names(path: string, method: string, where: 'path' | 'query' | 'body'): string[] {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`no ${method} ${path}`);
  if (where === 'body') return Object.keys(op.requestBody?.content['application/json']?.schema.properties ?? {});
  return (op.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
}

describe('/doc', () => {
  it('documents the scope of writes to an occurrence on every event write that takes it', () => {
    expect(names('/events/{id}', 'delete', 'query')).toContain('scope');
    expect(names('/events/by-slug/{slug}', 'delete', 'query')).toContain('scope');
    expect(names('/events/{id}', 'put', 'body')).toContain('scope');
    expect(names('/events/{id}', 'patch', 'body')).toContain('scope');
  });

  it('documents the password that unlocks a protected event in the answer of an update', () => {
    expect(names('/events/{id}', 'post', 'body')).toContain('password');
  });

  it('names the event of a by-slug update by the path, and offers no slug field to change there', () => {
    expect(names('/events/by-slug/{slug}', 'put', 'path')).toEqual(['slug']);
    expect(names('/events/by-slug/{slug}', 'put', 'body')).not.toContain('slug');
  });

  it('documents the feed of the list without paging: it carries every page', () => {
    expect(names('/events.ics', 'get', 'query')).not.toContain('page');
    expect(names('/events.ics', 'get', 'query')).toContain('start_date');
  });
});
