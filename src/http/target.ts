// The request target as the router reads it. Refusals that name a path's methods (405 and its
// Allow) or its group's error shape must read the path the same way, or a target the router
// matches (`/v1/funding/l%61test`, `//v1//funding/latest`) is called unknown for every other
// method and answered in the wrong shape.

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The origin form of a request target: an absolute-form target (`http://host/path?q`), which
 * HTTP/1.1 servers must accept, loses its scheme and authority; any other target is kept.
 */
export function originForm(url: string): string {
  if (url.startsWith('/')) return url;
  const absolute = ABSOLUTE_FORM.exec(url);
  if (absolute === null) return url;
  const rest = url.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The authority (`host[:port]`, userinfo included if sent) of an absolute-form target; undefined for any other form. */
export function targetAuthority(url: string): string | undefined {
  if (url.startsWith('/')) return undefined;
  const absolute = ABSOLUTE_FORM.exec(url);
  return absolute === null ? undefined : absolute[0].slice(absolute[0].indexOf('//') + 2);
}

/**
 * The path the router matches for a target: before `?` or `#`, percent-decoded as decodeURI
 * does (delimiters such as `%2F` stay encoded, as the router keeps them), with runs of `/`
 * collapsed (the router ignores duplicate slashes). A path that does not decode is kept.
 */
export function routerPath(url: string | undefined): string {
  const target = originForm(url ?? '/');
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  let decoded = path;
  if (path.includes('%')) {
    try {
      decoded = decodeURI(path);
    } catch {
      decoded = path;
    }
  }
  return decoded.includes('//') ? decoded.replace(/\/{2,}/g, '/') : decoded;
}
