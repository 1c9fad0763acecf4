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

  it('ranks media ranges by specificity and q', () => {
    expect(acceptQuality('application/json', 'text/html')).toBe(0);
    expect(acceptQuality('text/html,*/*;q=0.8', 'application/json')).toBe(0.8);
    expect(acceptQuality(undefined, 'text/html')).toBe(1);
    expect(acceptQuality('application/*;q=0.5, application/json;q=0.9', 'application/json')).toBe(0.9);
  });
});
