// Language-specific base addresses: one handler per language, each mounted under
// `<basePath>/<language>`, and the default language also at `<basePath>` itself.
import type { Calendar } from '@evcal/core';
import { createFetchHandler, type FetchHandlerOptions } from './fetch-handler';
import type { HandlerRequest } from './handler-request';
import type { Catalogue } from './i18n/translator';
import { boundedMemo } from './memo';
import { fetchHandlerOf, type EvcalHandler } from './wire-response';

export interface LanguageHandlerOptions extends Omit<FetchHandlerOptions, 'locale'> {
  /**
   * The languages served: bundled ones by tag (`'en'`, `'de'`, `'fr'`, `'es'`) or an app's own
   * catalogues. The first is the default language, served without a language segment.
   */
  readonly languages: readonly (string | Catalogue)[];
}

/**
 * Serves the API in several languages: `<basePath>/<namespace>` in the first language, and
 * `<basePath>/<language>/<namespace>` in each of them (`/de/cal/events/v1`). URLs in
 * responses keep the address they were requested under.
 */
export function createLanguageHandler(calendar: Calendar, options: LanguageHandlerOptions): EvcalHandler {
  const { languages, ...rest } = options;
  if (languages.length === 0) throw new TypeError('evcal: createLanguageHandler needs at least one language');
  const basePath = (rest.basePath ?? '').replace(/\/+$/, '');
  const tagOf = (l: string | Catalogue) => (typeof l === 'string' ? l : l.language);
  const tags = languages.map(tagOf);
  for (const tag of tags) {
    if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(tag)) throw new TypeError(`evcal: "${tag}" is not a language tag`);
  }
  if (new Set(tags.map((t) => t.toLowerCase())).size !== tags.length) throw new TypeError('evcal: a language is listed twice');

  const fallback = createFetchHandler(calendar, { ...rest, basePath, locale: languages[0]! });
  const prefixed = languages.map((locale) => {
    const segment = `${basePath}/${tagOf(locale).toLowerCase()}`;
    return { segment, handler: createFetchHandler(calendar, { ...rest, basePath: segment, locale }) };
  });
  // Which language an address is under, found once per address.
  const languageOf = boundedMemo<number>(1024);
  const handlerOf = (request: HandlerRequest) => {
    const index = languageOf(request.url, () => {
      const path = new URL(request.url).pathname.toLowerCase();
      return prefixed.findIndex(({ segment }) => path === segment || path.startsWith(`${segment}/`));
    });
    return index < 0 ? fallback : prefixed[index]!.handler;
  };
  // One way in, as each language's handler has: an answer it gives at once is given at once.
  return fetchHandlerOf((request) => handlerOf(request).answer(request));
}
