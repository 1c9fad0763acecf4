import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostCheck, isHostFieldValue, splitHost } from '../../src/core/hosts.js';

// Labels up to the DNS limit of 63 characters.
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/);
const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const port = fc.integer({ min: 1, max: 65535 });
const randomCase = (text: string, flips: boolean[]) => [...text].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');

describe('allowed hosts', () => {
  it('answers any Host when no list is configured', () => {
    expect(hostCheck([])).toBeUndefined();
  });

  it('matches a listed name on any port, in any letter case, with or without the trailing dot', () => {
    fc.assert(fc.property(name, fc.option(port, { nil: undefined }), fc.array(fc.boolean(), { minLength: 1 }), fc.boolean(), (host, p, flips, dot) => {
      const check = hostCheck([host])!;
      const header = `${randomCase(host, flips)}${dot ? '.' : ''}${p === undefined ? '' : `:${p}`}`;
      expect(check(header)).toBe(true);
    }));
  });

  it('matches a listed name:port only on that port, however many leading zeros either is written with', () => {
    const zeros = fc.integer({ min: 0, max: 4 });
    fc.assert(fc.property(name, port, port, zeros, zeros, (host, listed, asked, z1, z2) => {
      const padded = (n: number, z: number) => `${'0'.repeat(Math.max(0, Math.min(z, 5 - String(n).length)))}${n}`;
      const check = hostCheck([`${host}:${padded(listed, z1)}`])!;
      expect(check(`${host}:${padded(asked, z2)}`)).toBe(asked === listed);
      expect(check(host)).toBe(false);
    }));
  });

  it('compares bracketed IPv6 literals as written (an unlisted spelling of a listed address is refused, never the reverse)', () => {
    const check = hostCheck(['[::1]'])!;
    expect(check('[::1]:8080')).toBe(true);
    expect(check('[0:0:0:0:0:0:0:1]:8080')).toBe(false);
    expect(check('[::2]')).toBe(false);
  });

  it('accepts names up to 253 characters and refuses longer ones', () => {
    const long = (n: number) => Array.from({ length: Math.ceil(n / 64) }, () => 'a'.repeat(63)).join('.').slice(0, n);
    expect(splitHost(long(253))).toBeDefined();
    expect(splitHost(long(254).replace(/\.$/, 'a'))).toBeUndefined();
  });

  it('refuses other names, names that only end like a listed one, a missing Host and text that is no host', () => {
    fc.assert(fc.property(name, name, (listed, other) => {
      fc.pre(listed !== other);
      const check = hostCheck([listed])!;
      expect(check(other)).toBe(false);
      expect(check(`${other}.${listed}`)).toBe(false);
      expect(check(`${listed}.${other}`)).toBe(false);
    }));
    const check = hostCheck(['evidence.example', '[::1]:8080'])!;
    for (const bad of [undefined, '', ':8080', 'evidence.example:x', 'evidence.example:80:80', 'user@evidence.example', 'evidence.example/x', '[::1]:9090', '[::1]']) {
      expect(check(bad), String(bad)).toBe(false);
    }
    expect(check('[::1]:8080')).toBe(true);
  });

  it('splits name and port, and refuses what is no host', () => {
    expect(splitHost('Evidence.Example.:8080')).toEqual({ name: 'evidence.example', port: '8080' });
    expect(splitHost('[::1]')).toEqual({ name: '[::1]', port: undefined });
    expect(splitHost('localhost:08443')).toEqual({ name: 'localhost', port: '08443' });
    for (const bad of ['', '.', '.x', 'a..b', '-a.example', 'a-.example', 'a b', 'a_b', 'x:123456', 'x:0', 'x:65536', 'http://x', '[::1', '[zz::1]', `${'a'.repeat(64)}.example`]) {
      expect(splitHost(bad), bad).toBeUndefined();
    }
  });
});

describe('Host field values', () => {
  it('takes a host name, an IPv4 or bracketed IPv6 address or IPvFuture literal, each with an optional port, and an empty value', () => {
    for (const value of ['localhost', 'evidence.example:8080', '127.0.0.1', '[::1]', '[::1]:443', '[v1.fe80::a+en1]', 'a,b', 'x_y~z', 'caf%C3%A9.example', 'host:', '']) {
      expect(isHostFieldValue(value), value).toBe(true);
    }
  });

  it('refuses what is no host: user information, spaces, paths, queries, brackets that are no literal, several ports', () => {
    for (const value of ['user@127.0.0.1', 'a b', 'x/y?z', '<x>', 'a#b', '[::1', '[not-v6]', '[::1]x', '[fe80::1%eth0]', '[::1%25]', 'h:1:2', 'h:p', '%zz', '%4', 'a\\b', '"a"', 'caf\u00e9']) {
      expect(isHostFieldValue(value), value).toBe(false);
    }
  });

  it('accepts every name and port the allow-list accepts (property)', () => {
    fc.assert(fc.property(name, fc.option(port, { nil: undefined }), (host, p) => {
      expect(isHostFieldValue(`${host}${p === undefined ? '' : `:${p}`}`)).toBe(true);
    }));
  });
});

describe('an empty port', () => {
  it('is no port: a name listed for any port is answered with it, as without a list', () => {
    expect(splitHost('evidence.example:')).toEqual({ name: 'evidence.example', port: undefined });
    expect(hostCheck(['evidence.example'])!('evidence.example:')).toBe(true);
    expect(hostCheck(['[::1]'])!('[::1]:')).toBe(true);
    expect(hostCheck(['evidence.example:8080'])!('evidence.example:')).toBe(false);
  });

  it('does not make a zone identifier an address', () => {
    expect(splitHost('[fe80::1%eth0]')).toBeUndefined();
  });
});
