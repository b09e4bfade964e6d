// Languages (issue 7): the catalogues cover every text a client can read, with the same
// placeholders; handlers answer in their language under their own base address.
import { createCalendar, msg, verbatim } from '@evcal/core';
import { placeholdersOf } from '@evcal/core/binding';
import { createMemoryStorage } from '@evcal/memory';
import { describe, expect, it } from 'vitest';
import { BUNDLED_CATALOGUES } from '../src/i18n/catalogues';
import { createFetchHandler, createLanguageHandler, LANGUAGES, translator, type FetchHandler } from '../src/index';
import { extractTexts } from './support/i18n-keys';

const texts = extractTexts();
const KEYS = new Set([...texts.messages.keys(), ...texts.descriptions]);

describe('the catalogues', () => {
  it('every message is a string literal, so it can be extracted', () => {
    expect(texts.dynamic).toEqual([]);
    // A sanity check of the extraction itself: it finds messages of core, http and the adapters.
    expect([...texts.messages.keys()]).toEqual(expect.arrayContaining([
      'Event with ID {id} does not exist.', 'No route was found matching the URL and request method.',
      'The write conflicts with a concurrent change; try again.',
    ]));
    expect(texts.descriptions).toContain('The event title');
  });

  it('ships German, French and Spanish besides English', () => {
    expect(LANGUAGES).toEqual(['en', 'de', 'fr', 'es']);
  });

  describe.each(Object.entries(BUNDLED_CATALOGUES))('%s', (language, catalogue) => {
    it('has every text (the failure lists the missing ones, ready to translate)', () => {
      const missing = [...KEYS].filter((k) => !Object.hasOwn(catalogue, k) || catalogue[k]!.trim() === '');
      expect(Object.fromEntries(missing.map((k) => [k, ''])), `missing or empty in ${language}.json`).toEqual({});
    });

    it('has no text the code no longer uses', () => {
      expect(Object.keys(catalogue).filter((k) => !KEYS.has(k)), `stale in ${language}.json`).toEqual([]);
    });

    it('keeps the placeholders of every text', () => {
      const differing = Object.entries(catalogue)
        .filter(([english, translated]) => placeholdersOf(english).join() !== placeholdersOf(translated).join())
        .map(([english, translated]) => `${english} -> ${translated}`);
      expect(differing).toEqual([]);
    });

    it('translates the messages (no English left among the error texts)', () => {
      const untranslated = [...texts.messages.keys()].filter((k) => catalogue[k] === k);
      expect(untranslated).toEqual([]);
    });
  });
});

describe('translator', () => {
  it('fills placeholders in the translated template', () => {
    expect(translator('de').message(msg('Event with ID {id} does not exist.', { id: 42 }))).toBe(
      BUNDLED_CATALOGUES.de!['Event with ID {id} does not exist.']!.replace('{id}', '42'),
    );
  });

  it('leaves verbatim texts and unknown texts in English', () => {
    const de = translator('de');
    expect(de.message(verbatim('Invalid parameter.'))).toBe('Invalid parameter.');
    expect(de.text('A description no catalogue has')).toBe('A description no catalogue has');
  });

  it('takes an app\'s own catalogue', () => {
    const it = translator({ language: 'it', messages: { 'Event with ID {id} does not exist.': "L'evento con ID {id} non esiste." } });
    expect(it.language).toBe('it');
    expect(it.message(msg('Event with ID {id} does not exist.', { id: 7 }))).toBe("L'evento con ID 7 non esiste.");
  });

  it('refuses a language it has no catalogue for', () => {
    expect(() => translator('xx')).toThrow(/no catalogue for language "xx"/);
    expect(() => createFetchHandler(createCalendar({ storage: createMemoryStorage() }), { locale: 'xx' })).toThrow(TypeError);
  });
});

describe('language-specific base addresses', () => {
  const handler = (): FetchHandler => createLanguageHandler(createCalendar({ storage: createMemoryStorage() }), { languages: ['en', 'de', 'fr', 'es'] });
  const get = async (h: FetchHandler, path: string) => {
    const res = await h(new Request(`http://cal.test${path}`));
    return { status: res.status, language: res.headers.get('content-language'), body: await res.json() as Record<string, any> };
  };

  it('GET /de/cal/events/v1/events/999999 answers in German with the code and status of the English route', async () => {
    const h = handler();
    const en = await get(h, '/cal/events/v1/events/999999');
    const de = await get(h, '/de/cal/events/v1/events/999999');
    expect(en).toMatchObject({ status: 404, language: 'en', body: { code: 'rest-event-not-found', message: 'Event with ID 999999 does not exist.' } });
    expect(de.status).toBe(404);
    expect(de.language).toBe('de');
    expect(de.body.code).toBe('rest-event-not-found');
    expect(de.body.data).toEqual(en.body.data);
    expect(de.body.message).toBe(translator('de').message(msg('Event with ID {id} does not exist.', { id: 999999 })));
    expect(de.body.message).not.toBe(en.body.message);
  });

  it('translates parameter messages and keeps their names', async () => {
    const h = handler();
    const en = await get(h, '/cal/events/v1/events?page=x');
    const fr = await get(h, '/fr/cal/events/v1/events?page=x');
    expect(fr.status).toBe(400);
    expect(fr.body.code).toBe(en.body.code);
    expect(Object.keys(fr.body.data.params)).toEqual(['page']);
    expect(fr.body.data.params.page).toBe(translator('fr').message(msg('{param} is not of type {type}.', { param: 'page', type: 'integer' })));
    expect(fr.body.data.details.page.code).toBe('rest_invalid_type');
    expect(fr.body.data.details.page.message).toBe(fr.body.data.params.page);
  });

  it('keeps the language prefix in every URL of a response', async () => {
    const h = handler();
    const list = await get(h, '/es/cal/events/v1/categories?per_page=1');
    expect(list.body.rest_url).toMatch(/^http:\/\/cal\.test\/es\/cal\/events\/v1\/categories/);
    const doc = await get(h, '/es/cal/events/v1/doc');
    expect(doc.body.servers[0].url).toBe('http://cal.test/es/cal/events/v1/');
    const root = await get(h, '/es/cal/events/v1');
    expect(root.body.routes['/cal/events/v1/events']._links.self[0].href).toBe('http://cal.test/es/cal/events/v1/events');
  });

  it('translates the descriptions of /doc and of the namespace index, and nothing else in them', async () => {
    const h = handler();
    const [en, de] = [await get(h, '/cal/events/v1/doc'), await get(h, '/de/cal/events/v1/doc')];
    const title = (doc: Record<string, any>) => doc.paths['/events'].post.requestBody.content['application/json'].schema.properties.title;
    expect(title(de.body).description).toBe(BUNDLED_CATALOGUES.de!['The event title']);
    expect({ ...title(de.body), description: '' }).toEqual({ ...title(en.body), description: '' });
    expect(de.body.paths['/events'].post.summary).toBe(BUNDLED_CATALOGUES.de!['Create an event']);
    const rootDe = await get(h, '/de/cal/events/v1');
    const argDe = rootDe.body.routes['/cal/events/v1/events'].endpoints[0].args.per_page;
    expect(argDe.description).toBe(BUNDLED_CATALOGUES.de!['The number of items to return per page']);
  });

  it('serves the first language without a prefix, and unknown prefixes are no route', async () => {
    const h = createLanguageHandler(createCalendar({ storage: createMemoryStorage() }), { languages: ['fr', 'en'] });
    expect((await get(h, '/cal/events/v1/events/999999')).language).toBe('fr');
    expect((await get(h, '/en/cal/events/v1/events/999999')).language).toBe('en');
    const unknown = await get(h, '/it/cal/events/v1/events');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('rest_no_route');
    expect(unknown.language).toBe('fr');
  });

  it('refuses a configuration with no language, a bad tag or a language twice', () => {
    const calendar = createCalendar({ storage: createMemoryStorage() });
    expect(() => createLanguageHandler(calendar, { languages: [] })).toThrow(TypeError);
    expect(() => createLanguageHandler(calendar, { languages: ['en', '../x'] })).toThrow(TypeError);
    expect(() => createLanguageHandler(calendar, { languages: ['de', 'DE'] })).toThrow(TypeError);
    expect(() => createLanguageHandler(calendar, { languages: ['en', 'xx'] })).toThrow(/no catalogue/);
  });

  it('sends Content-Language on every answer, preflights and _envelope included', async () => {
    const h = createLanguageHandler(createCalendar({ storage: createMemoryStorage() }), {
      languages: ['en', 'de'], cors: { origins: '*' },
    });
    const preflight = await h(new Request('http://cal.test/de/cal/events/v1/events', {
      method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('content-language')).toBe('de');
    const enveloped = await h(new Request('http://cal.test/de/cal/events/v1/events/1?_envelope'));
    expect(enveloped.status).toBe(200);
    expect(enveloped.headers.get('content-language')).toBe('de');
  });
});
