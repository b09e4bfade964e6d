// The catalogues evcal ships, one JSON file per language (English needs none: its texts are
// the keys). To add a language, add `<tag>.json` beside this file and list it here; the
// catalogue test then checks it covers every text with the same placeholders.
import de from './de.json';
import es from './es.json';
import fr from './fr.json';

export const BUNDLED_CATALOGUES: Readonly<Record<string, Readonly<Record<string, string>>>> = { de, fr, es };
