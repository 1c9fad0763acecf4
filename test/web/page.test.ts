import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { acceptQuality } from '../../src/http/plugins/page.js';
import { webAssets } from '../../src/web/assets.js';

describe('GET / and the page assets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ mode: 'sample' });
  });
  afterAll(async () => t.close());

  it('serves HTML with a strict same-origin CSP and the sample banner in the markup', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.body).toContain('Sample mode');
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.body).not.toMatch(/\son[a-z]+=/i);
    expect(res.body).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('links only to same-origin paths this service answers, the research kit among them', async () => {
    const page = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    const hrefs = [...page.body.matchAll(/href="(\/[^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toContain('/api/v1/research-kit.zip');
    for (const href of new Set(hrefs)) {
      const res = await t.app.inject({ url: href });
      expect(res.statusCode, href).toBe(200);
    }
    const kit = await t.app.inject({ url: '/api/v1/research-kit.zip' });
    expect(kit.headers['content-type']).toMatch(/^application\/zip/);
    expect(kit.rawPayload.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  });

  it('keeps a JSON index for clients that ask for JSON', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'application/json' } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ service: 'evidence-desk', mode: 'sample', sample: true });
  });

  it('serves every asset with its ETag and answers 304 to a matching If-None-Match', async () => {
    for (const asset of webAssets().values()) {
      const res = await t.app.inject({ url: `/assets/${asset.name}` });
      expect(res.statusCode, asset.name).toBe(200);
      expect(res.rawPayload.equals(asset.body)).toBe(true);
      const again = await t.app.inject({ url: `/assets/${asset.name}`, headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
    }
    expect(webAssets().get('uPlot.iife.min.js')?.body.length).toBeGreaterThan(10_000);
  });

  it('answers 404 with a registry code for an asset it does not have', async () => {
    const res = await t.app.inject({ url: '/assets/..%2Fpackage.json' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'route_not_found' });
  });

  it('sends the page\'s protections with /docs and /docs/ too: same-origin CSP, no framing, no referrer', async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/swagger-initializer.js']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).not.toMatch(/https?:/);
    }
    for (const url of ['/docs', '/docs/']) {
      const res = await t.app.inject({ url });
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('marks up the views as a tablist of tabs with no list items between them', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    const tablist = /<([a-z]+)[^>]*role="tablist"[^>]*>([\s\S]*?)<\/\1>/.exec(res.body);
    expect(tablist).not.toBeNull();
    expect(tablist![1]).not.toBe('ul');
    expect(tablist![2]).not.toMatch(/<li\b/);
    expect([...tablist![2].matchAll(/role="tab"/g)]).toHaveLength(3);
  });

  it('states in the analysis form that times without a zone are read as UTC', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    const help = /<p id="panel-help"[^>]*>([\s\S]*?)<\/p>/.exec(res.body);
    expect(help?.[1]).toMatch(/without a zone is read as UTC/);
    expect(res.body).toMatch(/<textarea id="panel-csv"[^>]*aria-describedby="panel-help"/);
  });

  it('has a Source column in the funding table, a diagnostics table and a separate error box for sources in the data view', async () => {
    const res = await t.app.inject({ url: '/', headers: { accept: 'text/html' } });
    const head = /<table id="observations"[\s\S]*?<thead>([\s\S]*?)<\/thead>/.exec(res.body)?.[1] ?? '';
    expect([...head.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((m) => m[1])).toEqual(['Metric', 'Value', 'Observation date', 'Cadence', 'Source', 'Freshness', 'Review horizon']);
    expect(res.body).toContain('<table id="data-diagnostics">');
    expect(res.body).toContain('id="data-sources-error"');
    expect(res.body).toContain('id="changes-status"');
  });

  it('ranks media ranges by specificity and q', () => {
    expect(acceptQuality('application/json', 'text/html')).toBe(0);
    expect(acceptQuality('text/html,*/*;q=0.8', 'application/json')).toBe(0.8);
    expect(acceptQuality(undefined, 'text/html')).toBe(1);
    expect(acceptQuality('application/*;q=0.5, application/json;q=0.9', 'application/json')).toBe(0.9);
  });
});
