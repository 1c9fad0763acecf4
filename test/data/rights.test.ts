import { describe, expect, it } from 'vitest';
import { anyBlocked, isBlocked, normaliseLabel } from '../../src/data/rights.js';
import { parse } from './documents.js';

describe('rights and state blocking', () => {
  it.each(['restricted', 'withheld', 'unavailable', 'not_available', 'denied', 'pending', 'review_required', 'prohibited', 'metadata_only'])(
    'blocks %s in every labelled field, for raw and derived values',
    (word) => {
      for (const field of ['availability', 'status', 'redistribution_status', 'rights_status']) {
        expect(isBlocked({ [field]: word }, 'raw')).toBe(true);
        expect(isBlocked({ [field]: word }, 'derived')).toBe(true);
      }
    },
  );

  it('normalises case, spaces and hyphens before matching', () => {
    expect(normaliseLabel('  METADATA-ONLY ')).toBe('metadata_only');
    expect(isBlocked({ rights_status: 'METADATA-ONLY' }, 'derived')).toBe(true);
    expect(isBlocked({ status: 'Review Required' }, 'derived')).toBe(true);
    expect(isBlocked({ availability: 'Not Available' }, 'derived')).toBe(true);
  });

  it('stops raw values at derived_only but lets derived outputs through', () => {
    expect(isBlocked({ redistribution_status: 'derived_only' }, 'raw')).toBe(true);
    expect(isBlocked({ redistribution_status: 'derived-only' }, 'derived')).toBe(false);
  });

  it('blocks on publication_allowed exactly false only', () => {
    expect(isBlocked({ publication_allowed: false }, 'derived')).toBe(true);
    expect(isBlocked({ publication_allowed: 0 }, 'derived')).toBe(false);
    expect(isBlocked({ publication_allowed: null }, 'derived')).toBe(false);
    expect(isBlocked({ publication_allowed: 'false' }, 'derived')).toBe(false);
  });

  it.each(['permitted', 'allowed', 'AVAILABLE', 'FRESH', 'PARTIAL', 'available', null])('does not block %s', (label) => {
    expect(isBlocked({ availability: label, status: label, redistribution_status: label, rights_status: label }, 'raw')).toBe(false);
  });

  it('matches substrings as the upstream does, so "unrestricted" also blocks (fail closed)', () => {
    expect(isBlocked({ rights_status: 'unrestricted' }, 'derived')).toBe(true);
    expect(isBlocked({ rights_status: 'not restricted' }, 'derived')).toBe(true);
  });

  it('reads a structured label through its JSON text, so a blocking word inside still blocks', () => {
    expect(isBlocked(parse('{"status": {"state": "withheld"}}'), 'derived')).toBe(true);
    expect(isBlocked(parse('{"status": ["fine", "PROHIBITED"]}'), 'derived')).toBe(true);
    expect(isBlocked(parse('{"status": {"state": "ok"}}'), 'derived')).toBe(false);
  });

  it('ignores labels inherited from the prototype and non-object nodes', () => {
    const node = Object.create({ status: 'restricted' }) as object;
    expect(isBlocked(node, 'raw')).toBe(false);
    expect(isBlocked(['restricted'], 'raw')).toBe(false);
    expect(isBlocked('restricted', 'raw')).toBe(false);
  });

  it('blocks a value when any node on its path is blocked', () => {
    expect(anyBlocked([{}, { rights_status: 'prohibited' }, {}], 'derived')).toBe(true);
    expect(anyBlocked([{}, {}, {}], 'raw')).toBe(false);
  });
});
