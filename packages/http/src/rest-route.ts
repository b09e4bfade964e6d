// WordPress's plain-permalink address form: `<site>/?rest_route=/<namespace>/<route>` (or
// `<site>/index.php?rest_route=…`). WordPress serves its REST API from the `rest_route` query
// variable, whatever the permalink setting; the pretty form `/wp-json/<route>` is only a
// rewrite rule onto it. Clients written against a site with plain permalinks call that form,
// so a request in it is rewritten here onto `<basePath><route>`: the router then sees one
// form, and every URL the API emits stays in the pretty form, which evcal always serves.

/**
 * The URL a request is served as: for `<site path>/?rest_route=<route>` (or `…/index.php?…`),
 * `<basePath><route>` with the other query parameters kept; otherwise the URL itself.
 */
export function restRouteUrl(url: URL, sitePath: string, basePath: string): URL {
  // Most requests have no such parameter: their query is not parsed here (a name with escapes may hide it).
  if (!/rest|%/i.test(url.search)) return url;
  const values = url.searchParams.getAll('rest_route');
  // As PHP reads a query string, the last of repeated parameters wins.
  const value = values[values.length - 1];
  if (value === undefined || value === '') return url;
  const site = sitePath.replace(/\/+$/, '');
  const path = url.pathname;
  if (path !== `${site}/` && path !== site && path.toLowerCase() !== `${site}/index.php`) return url;
  // WordPress strips the trailing slash and reads an empty route as the index ("/").
  const route = value.replace(/\/+$/, '') || '/';
  // A route without its leading slash matches no route in WordPress either.
  if (!route.startsWith('/')) return url;
  const rewritten = new URL(url.href);
  // The route arrives decoded; "%" is encoded again so the router's decoding gives it back.
  rewritten.pathname = `${basePath}${route === '/' ? '' : route}`.replace(/%/g, '%25') || '/';
  // The rest of the query string is kept byte for byte (URLSearchParams would re-encode it).
  rewritten.search = url.search.slice(1).split('&').filter((pair) => keyOf(pair) !== 'rest_route').join('&');
  return rewritten;
}

/** The path of the site's home URL ('' at the root of the host). */
export function sitePathOf(siteUrl: string | undefined): string {
  if (siteUrl === undefined) return '';
  try {
    return new URL(siteUrl).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function keyOf(pair: string): string {
  const key = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
