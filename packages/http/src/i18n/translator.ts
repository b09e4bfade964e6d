// Languages. A catalogue maps English texts (error message templates with `{name}`
// placeholders, descriptions of the namespace index and /doc) to one language's texts,
// gettext style: the English text is the key, and a text missing from a catalogue is shown in
// English. Field names, codes, parameters and data never change with the language.
import { english, formatMessage, type Message } from '@evcal/core';
import { BUNDLED_CATALOGUES } from './catalogues';

/** One language's texts: English text -> translation. */
export interface Catalogue {
  /** A BCP 47 language tag, sent as `Content-Language`: `de`, `fr`, `pt-BR`. */
  readonly language: string;
  readonly messages: Readonly<Record<string, string>>;
}

/** Turns texts into one language. */
export interface Translator {
  readonly language: string;
  /** A message (template and values) in this language. */
  message(message: Message): string;
  /** A fixed English text (a description, a title) in this language. */
  text(english: string): string;
}

/** The languages evcal ships catalogues for, English first. */
export const LANGUAGES: readonly string[] = ['en', ...Object.keys(BUNDLED_CATALOGUES)];

const ENGLISH: Translator = { language: 'en', message: english, text: (s) => s };

/**
 * The translator for a language evcal ships (`'de'`), or for an app's own catalogue.
 * @throws TypeError for a language without a bundled catalogue
 */
export function translator(locale: string | Catalogue = 'en'): Translator {
  if (typeof locale === 'string') {
    if (locale === 'en') return ENGLISH;
    const messages = BUNDLED_CATALOGUES[locale];
    if (!messages) {
      throw new TypeError(`evcal: no catalogue for language "${locale}" (bundled: ${LANGUAGES.join(', ')}); pass a Catalogue for others`);
    }
    return fromCatalogue({ language: locale, messages });
  }
  return fromCatalogue(locale);
}

function fromCatalogue({ language, messages }: Catalogue): Translator {
  const lookup = (key: string) => (Object.hasOwn(messages, key) ? messages[key]! : key);
  return {
    language,
    message: (m) => formatMessage(m.translatable ? lookup(m.template) : m.template, m.values),
    text: lookup,
  };
}

const TEXT_KEYS = new Set(['description', 'title', 'summary']);

/**
 * A copy of a descriptive document (the namespace index, /doc) with every `description`,
 * `title` and `summary` text translated; everything else (names, schemas, defaults) is kept.
 */
export function translateDocument<T>(document: T, t: Translator): T {
  if (t === ENGLISH) return document;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = typeof v === 'string' && TEXT_KEYS.has(key) ? t.text(v) : walk(v);
    return out;
  };
  return walk(document) as T;
}
