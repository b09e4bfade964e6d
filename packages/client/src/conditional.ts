// Validators: read once, then ask again with `ifNoneMatch(etag)` (304 when it is still current),
// and change only what you read with `ifMatch(etag)` (412 `rest_precondition_failed` when
// someone changed it since). Pass them as an `api` call's `headers`.

/** `If-None-Match` for a read: the ETags you hold. */
export function ifNoneMatch(...etags: readonly (string | undefined)[]): { 'If-None-Match'?: string } {
  const list = etags.filter((e): e is string => Boolean(e));
  return list.length ? { 'If-None-Match': list.join(', ') } : {};
}

/** `If-Match` for a change: the ETag of the resource as you read it (`'*'`: any existing state). */
export function ifMatch(etag: string | undefined): { 'If-Match'?: string } {
  return etag ? { 'If-Match': etag } : {};
}
