// The featured image object (behaviour.md §1.6), or false.
import type { ImageRecord } from '../model/records';

export type ImageJson = Record<string, unknown>;

/** `{url, id, extension, width, height, filesize, sizes}` with empty values removed; false for none. */
export function imageJson(image: ImageRecord | null): ImageJson | false {
  if (!image) return false;
  const out: ImageJson = { url: image.url, id: image.id, extension: extensionOf(image.url) };
  if (image.width) out.width = image.width;
  if (image.height) out.height = image.height;
  if (image.filesize) out.filesize = image.filesize;
  if (image.sizes && Object.keys(image.sizes).length > 0) out.sizes = image.sizes;
  for (const [k, v] of Object.entries(out)) if (v === undefined || v === '' || v === 0) delete out[k];
  return out;
}

function extensionOf(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL: use the string as a path
  }
  const m = /\.([a-z0-9]{1,8})$/i.exec(path);
  return m ? m[1]!.toLowerCase() : '';
}
