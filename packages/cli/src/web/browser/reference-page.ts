// The API reference page in the browser (bundled into dist/web/reference-page.global.js):
// Swagger UI (served from swagger-ui-dist, loaded before this script as the global
// SwaggerUIBundle) renders the OpenAPI document the API serves at /doc, in the page's language,
// under evcal's name and description (the document keeps the reference's, for its clients), its
// operations grouped by resource in the order the server gives, drawn when opened. The page
// preloads the document while Swagger UI's script arrives.

/** What Swagger UI's instance offers that this page uses: showing a resource's operations. */
interface SwaggerUI {
  readonly layoutActions?: { show(key: readonly string[], shown: boolean): void };
}

interface Settings {
  readonly url: string;
  readonly title: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly servers: string;
}

const settings = readSettings();
const swagger: unknown = Reflect.get(window, 'SwaggerUIBundle');
if (typeof swagger !== 'function') throw new Error('evcal: Swagger UI is missing');
const rank = (tag: string) => {
  const i = settings.tags.indexOf(tag);
  return i < 0 ? settings.tags.length : i;
};

// Swagger UI leaves its choice of server without a name: named whenever it is drawn.
new MutationObserver(() => {
  const servers = document.getElementById('servers');
  if (servers && servers.getAttribute('aria-label') !== settings.servers) servers.setAttribute('aria-label', settings.servers);
}).observe(document.getElementById('reference') ?? document.body, { childList: true, subtree: true });

void fetch(settings.url, { headers: { accept: 'application/json' } })
  .then((response) => {
    if (!response.ok) throw new Error(`evcal: ${settings.url} answered ${response.status}`);
    return response.json() as Promise<Record<string, unknown>>;
  })
  .then((spec) => {
    const info = typeof spec.info === 'object' && spec.info !== null ? spec.info : {};
    const ui = swagger({
      spec: { ...spec, info: { ...info, title: settings.title, description: settings.description } },
      dom_id: '#reference',
      // Without deep links: each would be a link inside the operation's button (axe: nested-interactive).
      deepLinking: false,
      // Every resource collapsed but the first, whose operations are listed (each collapsed):
      // the page draws about twenty operations at first, the others when their resource is opened.
      docExpansion: 'none',
      defaultModelsExpandDepth: 0,
      filter: true,
      tagsSorter: (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b),
    }) as SwaggerUI | undefined;
    const first = settings.tags[0];
    if (first !== undefined) ui?.layoutActions?.show(['operations-tag', first], true);
  });

function readSettings(): Settings {
  const parsed: unknown = JSON.parse(document.getElementById('evcal-docs')?.textContent ?? '{}');
  const get = (key: string): unknown => (typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, key) : undefined);
  const tags = get('tags');
  return {
    url: String(get('url') ?? ''),
    title: String(get('title') ?? ''),
    description: String(get('description') ?? ''),
    tags: Array.isArray(tags) ? tags.map(String) : [],
    servers: String(get('servers') ?? ''),
  };
}
