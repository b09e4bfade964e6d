// The featured image object (behaviour reference: "Image object"), or false.
import type { ImageJson } from './schemas';
import type { ImageRecord } from '../model/records';

export type { ImageJson };

/** `{url, id, extension, width, height, filesize, sizes}` with empty values removed; false for none. */
export function imageJson(image: ImageRecord | null): ImageJson | false {
  if (!image) return false;
  const extension = extensionOf(image.url);
  return {
    url: image.url,
    ...(image.id ? { id: image.id } : {}),
    ...(extension ? { extension } : {}),
    ...(image.width ? { width: image.width } : {}),
    ...(image.height ? { height: image.height } : {}),
    ...(image.filesize ? { filesize: image.filesize } : {}),
    ...(image.sizes && Object.keys(image.sizes).length > 0 ? { sizes: image.sizes } : {}),
  };
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
