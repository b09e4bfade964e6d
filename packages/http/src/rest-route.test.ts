import { describe, expect, it } from 'vitest';
import { restRouteUrl, sitePathOf } from './rest-route';

const rewrite = (href: string, sitePath = '', basePath = '/wp-json') => restRouteUrl(new URL(href), sitePath, basePath).href;

describe('restRouteUrl', () => {
  it('rewrites the front page and index.php onto the base path', () => {
    expect(rewrite('https://s.example/?rest_route=/tribe/events/v1/events')).toBe('https://s.example/wp-json/tribe/events/v1/events');
    expect(rewrite('https://s.example/index.php?rest_route=/tribe/events/v1/events/8')).toBe('https://s.example/wp-json/tribe/events/v1/events/8');
    expect(rewrite('https://s.example?rest_route=/tribe/events/v1')).toBe('https://s.example/wp-json/tribe/events/v1');
  });

  it('keeps the other query parameters as they were sent', () => {
    expect(rewrite('https://s.example/?rest_route=/tribe/events/v1/events&categories%5B%5D=music&start_date=2026-01-01+00:00'))
      .toBe('https://s.example/wp-json/tribe/events/v1/events?categories%5B%5D=music&start_date=2026-01-01+00:00');
    expect(rewrite('https://s.example/?per_page=2&rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents&page=2'))
      .toBe('https://s.example/wp-json/tribe/events/v1/events?per_page=2&page=2');
  });

  it('strips a trailing slash and takes the last of repeated values, as WordPress does', () => {
    expect(rewrite('https://s.example/?rest_route=/tribe/events/v1/events/')).toBe('https://s.example/wp-json/tribe/events/v1/events');
    expect(rewrite('https://s.example/?rest_route=/a&rest_route=/tribe/events/v1/tags')).toBe('https://s.example/wp-json/tribe/events/v1/tags');
  });

  it('keeps encoded characters of slugs', () => {
    const url = restRouteUrl(new URL('https://s.example/?rest_route=/tribe/events/v1/events/by-slug/caf%C3%A9%2550'), '', '/wp-json');
    expect(decodeURIComponent(url.pathname)).toBe('/wp-json/tribe/events/v1/events/by-slug/café%50');
  });

  it('honours the path of the site home URL', () => {
    expect(rewrite('https://s.example/blog/?rest_route=/tribe/events/v1/events', '/blog', '/blog/wp-json'))
      .toBe('https://s.example/blog/wp-json/tribe/events/v1/events');
    expect(rewrite('https://s.example/?rest_route=/tribe/events/v1/events', '/blog', '/blog/wp-json'))
      .toBe('https://s.example/?rest_route=/tribe/events/v1/events');
  });

  it('leaves other requests alone', () => {
    for (const href of [
      'https://s.example/wp-json/tribe/events/v1/events?rest_route=/tribe/events/v1/tags',
      'https://s.example/event/gig/?rest_route=/tribe/events/v1/events',
      'https://s.example/?rest_route=',
      'https://s.example/?rest_route=tribe/events/v1/events',
      'https://s.example/?p=12',
    ]) expect(rewrite(href)).toBe(new URL(href).href);
  });
});

describe('sitePathOf', () => {
  it('is the path of the home URL without its trailing slash', () => {
    expect(sitePathOf(undefined)).toBe('');
    expect(sitePathOf('https://s.example/')).toBe('');
    expect(sitePathOf('https://s.example/blog/')).toBe('/blog');
    expect(sitePathOf('not a url')).toBe('');
  });
});

describe('restRouteUrl with an escaped parameter name', () => {
  it('reads rest%5Froute as PHP does', () => {
    expect(restRouteUrl(new URL('https://s.example/?rest%5Froute=/tribe/events/v1/tags'), '', '/wp-json').pathname).toBe('/wp-json/tribe/events/v1/tags');
  });
});
