// Query strings read as the upstreams' framework reads them (Starlette: urllib's parse_qsl
// with blank values kept). Fastify's parser kept a value whose escapes are not UTF-8 as its
// raw text (`limit=%ff` echoed "%ff" in a 422), where Python decodes every run of escapes
// with replacement characters ("\ufffd"); the values of well-formed queries are the same.

/** Keeps a leading U+FEFF, as Python's decoder does. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** urllib's unquote_plus: `+` is a space, each run of %XX escapes is UTF-8 with replacement; `%zz` stays. */
function unquotePlus(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  return spaced.replace(ESCAPE_RUN, (run) => utf8.decode(Buffer.from(run.replaceAll('%', ''), 'hex')));
}

/**
 * Name → value, or every value in order for a repeated name. Pieces split on `&` alone, empty
 * ones skipped; a piece without `=` is a name with an empty value. The object has no
 * prototype, so `__proto__` or `constructor` is a name like any other.
 */
export function parseQueryString(query: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const piece of query.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = unquotePlus(eq === -1 ? piece : piece.slice(0, eq));
    const value = eq === -1 ? '' : unquotePlus(piece.slice(eq + 1));
    const known = out[name];
    if (known === undefined) out[name] = value;
    else if (Array.isArray(known)) known.push(value);
    else out[name] = [known, value];
  }
  return out;
}
