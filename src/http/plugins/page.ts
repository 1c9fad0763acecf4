// The web page and its assets. The page is static HTML (the mode banner filled in on the
// server, so it shows even without scripts) plus same-origin scripts and styles; nothing
// is inline and nothing comes from another host, which the Content-Security-Policy on the
// page and its assets states to the browser.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_VERSION } from '../../core/build-info.js';
import { pageTemplate, webAssets } from '../../web/assets.js';
import { serveRoute, type GroupPluginOptions } from '../route.js';
import { ServicePage, type ServiceIndex } from '../routes/page.js';

/** What the page may load: its own origin only, no inline code, no framing, no plugins. */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function pageHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', PAGE_CSP);
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
}

/** Quality the Accept header gives a media type (exact, type/*, then * /*; 1 when absent). */
export function acceptQuality(accept: string | undefined, mediaType: string): number {
  if (accept === undefined || accept.trim() === '') return 1;
  const [type] = mediaType.split('/');
  let best = -1;
  let bestSpecificity = -1;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';').map((s) => s.trim());
    let specificity: number;
    if (range === mediaType) specificity = 2;
    else if (range === `${type}/*`) specificity = 1;
    else if (range === '*/*') specificity = 0;
    else continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) q = Math.min(1, Math.max(0, Number(m[1])));
    }
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      best = q;
    }
  }
  return best < 0 ? 0 : best;
}

/** JSON only when the client ranks it strictly above HTML. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return acceptQuality(accept, 'application/json') > acceptQuality(accept, 'text/html');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const pagePlugin: FastifyPluginAsync<GroupPluginOptions> = async (app, options) => {
  const { config } = options.deps;
  const sample = config.mode === 'sample';
  const banner = sample
    ? 'Sample mode: every number on this page comes from bundled documents made up for demonstration. None of it is real market data.'
    : 'Live mode: funding evidence is captured from the original publishers; data views read their public sources.';
  const html = pageTemplate()
    .replaceAll('{{MODE}}', config.mode)
    .replaceAll('{{BANNER}}', escapeHtml(banner))
    .replaceAll('{{VERSION}}', escapeHtml(SERVICE_VERSION));

  serveRoute(app, options, ServicePage, async (request, reply) => {
    reply.header('vary', 'Accept');
    reply.header('cache-control', 'no-cache');
    if (wantsJson(request)) {
      const index: ServiceIndex = {
        service: 'evidence-desk',
        service_version: SERVICE_VERSION,
        mode: config.mode,
        sample,
        links: {
          page: '/',
          openapi: '/openapi.json',
          docs: '/docs',
          health: '/healthz',
          readiness: '/readyz',
          funding_latest: '/v1/funding/latest',
          funding_history: '/v1/funding/history',
          analysis_capabilities: '/v1/capabilities',
        },
      };
      return reply.type('application/json').send(JSON.stringify(index));
    }
    pageHeaders(reply);
    return reply.type('text/html; charset=utf-8').send(html);
  });

  // Assets are part of the page, not operations of the API: hidden from the OpenAPI document.
  app.get<{ Params: { name: string } }>('/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = webAssets().get(request.params.name);
    if (!asset) return reply.callNotFound();
    pageHeaders(reply);
    reply.header('etag', asset.etag);
    reply.header('cache-control', 'no-cache');
    const match = request.headers['if-none-match'];
    if (typeof match === 'string' && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) {
      return reply.code(304).send();
    }
    return reply.type(asset.contentType).send(asset.body);
  });
};
