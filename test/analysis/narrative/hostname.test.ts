import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declaredFamily } from '../../../src/analysis/narrative/families.js';
import { foldedUrlHost, urlsplitHostRaw, urlsplitNetloc } from '../../../src/analysis/narrative/hostname.js';
import { fixtures } from './fixtures.js';

describe('URL host as urlsplit().hostname reads it', () => {
  it(`agrees with CPython on ${fixtures.urls.length} URLs, including refusals`, () => {
    expect(fixtures.urls.length).toBeGreaterThanOrEqual(200);
    expect(fixtures.urls.some((c) => c.error)).toBe(true);
    for (const c of fixtures.urls) {
      expect(urlsplitNetloc(c.url) === null, c.url).toBe(c.error);
      expect(urlsplitHostRaw(c.url) === null, c.url).toBe(c.hostname === null);
      expect(foldedUrlHost(c.url), c.url).toBe(c.folded);
    }
  });

  it('does not rewrite hosts the way WHATWG URL would', () => {
    expect(foldedUrlHost('https://Bücher.example/x')).toBe('bücher.example');
    expect(foldedUrlHost('http://0x7f.1/')).toBe('0x7f.1');
    expect(foldedUrlHost('//Example.org/path')).toBe('example.org');
    expect(foldedUrlHost('example.org/path')).toBeNull();
  });
});

describe('declared source family', () => {
  it('prefers the declared family, then the folded host without one www., then the source id', () => {
    expect(declaredFamily({ id: 's', kind: 'primary', family: 'Wire', url: 'https://x.example' })).toBe('Wire');
    expect(declaredFamily({ id: 's', kind: 'primary', url: 'https://WWW.Straße.example/a' })).toBe('strasse.example');
    expect(declaredFamily({ id: 's', kind: 'primary', url: 'https://www.www.example.com' })).toBe('www.example.com');
    expect(declaredFamily({ id: 's', kind: 'primary', url: 'not a url' })).toBe('s');
    expect(declaredFamily({ id: 's', kind: 'primary', url: 'http://[::1/' })).toBe('s');
    expect(declaredFamily({ id: 's', kind: 'primary' })).toBe('s');
  });

  it('decides on the host before stripping "www.", so a host that is only "www." declares the family ""', () => {
    expect(declaredFamily({ id: 'fallback', kind: 'reporting', url: 'http://www./x' })).toBe('');
    expect(declaredFamily({ id: 'fallback', kind: 'reporting', url: 'https://WWW.' })).toBe('');
    expect(declaredFamily({ id: 'fallback', kind: 'reporting', url: 'https://www' })).toBe('www');
    // An empty declared family is no family: the URL decides.
    expect(declaredFamily({ id: 'fallback', kind: 'reporting', family: '', url: 'https://www.' })).toBe('');
  });

  it(`equals the reference's family on ${fixtures.urls.length} URLs`, () => {
    for (const c of fixtures.urls) {
      expect(declaredFamily({ id: 'source-id', kind: 'primary', url: c.url }), c.url).toBe(c.family);
    }
    expect(fixtures.urls.filter((c) => c.family === '').length).toBeGreaterThanOrEqual(5);
  });

  it('removes exactly one leading www. from any host, leaving "" when nothing else is there', () => {
    const label = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(label, { maxLength: 3 }), fc.constantFrom('www.', 'WWW.', 'Www.'), (labels, www) => {
        const rest = labels.join('.');
        expect(declaredFamily({ id: 'id', kind: 'primary', url: `https://${www}${rest}/path` })).toBe(rest);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
