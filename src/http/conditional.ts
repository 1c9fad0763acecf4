// If-None-Match against strong entity tags. Tags are the quoted SHA-256 of the exact
// body bytes, so equal bodies share a tag and any byte change yields another.

/**
 * True when If-None-Match names `etag` or is `*`. Entries are comma-separated; a leading
 * `W/` is ignored (a weak comparison), as clients echo weak forms of strong tags.
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  for (const raw of text.split(',')) {
    let entry = raw.trim();
    if (entry.startsWith('W/')) entry = entry.slice(2).trim();
    if (entry === '*' || entry === etag) return true;
  }
  return false;
}
