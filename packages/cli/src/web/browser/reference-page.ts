// The API reference page in the browser (bundled into dist/web/reference-page.global.js):
// Swagger UI (served from swagger-ui-dist, loaded before this script as the global
// SwaggerUIBundle) renders the OpenAPI document the API serves at /doc, in the page's language.

interface SwaggerUIOptions {
  readonly url: string;
  readonly dom_id: string;
  readonly deepLinking?: boolean;
  readonly docExpansion?: 'list' | 'full' | 'none';
}

const swagger: unknown = Reflect.get(window, 'SwaggerUIBundle');
const settings: unknown = JSON.parse(document.getElementById('evcal-docs')?.textContent ?? '{}');
const url = typeof settings === 'object' && settings !== null ? Reflect.get(settings, 'url') : undefined;
if (typeof swagger !== 'function' || typeof url !== 'string') throw new Error('evcal: Swagger UI or the document address is missing');
const options: SwaggerUIOptions = { url, dom_id: '#reference', deepLinking: true, docExpansion: 'list' };
swagger(options);
