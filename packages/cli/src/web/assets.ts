// The files the pages load (`/assets/…`): the page scripts this package's build writes, and
// Swagger UI's script and stylesheet from swagger-ui-dist. Each is read and compressed once
// (gzip and brotli at fast settings, since the first visitor waits for it: Swagger UI's
// script is 1.4 MB as it is, a few hundred KB compressed), then served from memory with an
// ETag (a 304 when the browser has it) in the encoding the browser accepts.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { noneMatch, parseEntityTags } from '@evcal/http';

interface Asset {
  readonly file: () => string;
  readonly type: string;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
/** The browser scripts this package's build writes (tsup.web.config.ts). */
const built = (file: string) => () => join(packageDir('@evcal/cli'), 'dist', 'web', file);
const JS = 'text/javascript; charset=utf-8';

const ASSETS: Readonly<Record<string, Asset>> = {
  '/assets/evcal/calendar-page.js': { file: built('calendar-page.global.js'), type: JS },
  '/assets/evcal/reference-page.js': { file: built('reference-page.global.js'), type: JS },
  '/assets/swagger-ui/swagger-ui-bundle.js': { file: () => join(packageDir('swagger-ui-dist'), 'swagger-ui-bundle.js'), type: JS },
  '/assets/swagger-ui/swagger-ui.css': { file: () => join(packageDir('swagger-ui-dist'), 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
};

/** A file read and compressed, as served. */
export interface Encoded {
  readonly identity: Uint8Array;
  readonly gzip: Uint8Array;
  readonly br: Uint8Array;
  readonly etag: string;
}

const loaded = new Map<string, Promise<Encoded>>();

/**
 * Reads and compresses every asset now (the server calls it as it starts), so that the first
 * visitor does not wait for it. A file missing (the page scripts not built) is reported when asked for.
 */
export function warmAssets(): void {
  for (const pathname of Object.keys(ASSETS)) void load(pathname)?.catch(() => loaded.delete(pathname));
}

function load(pathname: string): Promise<Encoded> | undefined {
  const asset = ASSETS[pathname];
  if (!asset) return undefined;
  let entry = loaded.get(pathname);
  if (!entry) {
    entry = readFile(asset.file()).then(encode);
    loaded.set(pathname, entry);
  }
  return entry;
}

/** An asset's answer: 404 for paths that are none. */
export async function serveAsset(pathname: string, request: Request): Promise<Response> {
  const asset = ASSETS[pathname];
  const entry = load(pathname);
  if (!asset || !entry) return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  let encoded: Encoded;
  try {
    encoded = await entry;
  } catch {
    loaded.delete(pathname);
    return new Response('Not Found (run `npm run build` to build the page scripts)', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return encodedResponse(encoded, asset.type, request, 'public, max-age=3600');
}

/** Bytes made ready to serve in every encoding, with a strong ETag of their content. */
export async function encode(bytes: Uint8Array): Promise<Encoded> {
  const [gz, br] = await Promise.all([
    promisify(gzip)(bytes, { level: 6 }),
    promisify(brotliCompress)(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  ]);
  return { identity: bytes, gzip: gz, br, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/** The answer with the encoding the request accepts (brotli, else gzip, else none), or 304. */
export function encodedResponse(encoded: Encoded, type: string, request: Request, cacheControl: string, extra: Readonly<Record<string, string>> = {}): Response {
  const headers: Record<string, string> = {
    'content-type': type, 'cache-control': cacheControl, etag: encoded.etag, vary: 'Accept-Encoding', 'x-content-type-options': 'nosniff', ...extra,
  };
  if (!noneMatch(parseEntityTags(request.headers.get('if-none-match')), encoded.etag)) return new Response(null, { status: 304, headers });
  const accepted = request.headers.get('accept-encoding') ?? '';
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  const body = encoding === 'br' ? encoded.br : encoding === 'gzip' ? encoded.gzip : encoded.identity;
  if (encoding) headers['content-encoding'] = encoding;
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { headers });
}
