// If-None-Match against entity tags. Strong tags are the quoted SHA-256 of the exact body
// bytes, so equal bodies share a tag and any byte change yields another; the one weak kind
// (data/live-tag.ts) covers answers that differ only in their ages at answer time.

/**
 * True when If-None-Match names `etag` or is `*`. Entries are comma-separated; the
 * comparison is weak on both sides (RFC 9110 §13.1.2): a leading `W/` is ignored, as
 * clients echo weak forms of strong tags.
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  const text = Array.isArray(header) ? header.join(',') : header;
  for (const raw of text.split(',')) {
    let entry = raw.trim();
    if (entry.startsWith('W/')) entry = entry.slice(2).trim();
    if (entry === '*' || entry === opaque) return true;
  }
  return false;
}
