// A record's page in a language: its `url` is the default language's page; every other
// language's is the same path after `/<language>` (page-address.ts). Used by the server's
// pages and by the calendar page's script, so it imports nothing.

/** `url` in `language`; a URL elsewhere than under `siteRoot` stays as it is. */
export function inLanguage(url: string, siteRoot: string, language: string, defaultLanguage: string): string {
  if (language === defaultLanguage || !url.startsWith(`${siteRoot}/`)) return url;
  return `${siteRoot}/${language}${url.slice(siteRoot.length)}`;
}
