import { readFileSync } from 'node:fs';
import path from 'node:path';

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  extractPratesXml,
  parsePratesArchive,
  parsePratesXml,
} from '../../../src/funding/publishers/frb-prates.js';
import { REPO_ROOT, buildAllPratesZips } from '../../fixtures/publishers/build-prates-zips.js';
import { acceptedValues, documentFailure, entryOn, fixture, fixtureText, rejection, seriesOf } from './fixtures.js';

const iorbOf = (zipName: string) => seriesOf(parsePratesArchive(fixture(`iorb/${zipName}.zip`)), 'policy.iorb');

describe('PRATES archive', () => {
  it('reads RESBM_N.D observations with status A, exact and newest first', () => {
    const doc = parsePratesArchive(fixture('iorb/valid.zip'));
    expect(doc.document).toBe('iorb');
    const iorb = seriesOf(doc, 'policy.iorb');
    expect(iorb.observations.map((o) => o.date)).toEqual([
      '2026-10-21', '2026-10-20', '2026-10-19', '2026-10-16', '2026-10-15', '2026-10-14', '2026-10-13',
      '2026-10-09', '2026-10-08', '2026-10-07', '2026-10-06', '2026-10-05', '2026-10-02', '2026-10-01',
    ]);
    expect(entryOn(iorb, '2026-10-21')).toEqual({ date: '2026-10-21', state: 'accepted', exact: '3.9', value: 3.9 });
    expect(iorb.newestDate).toBe('2026-10-21');
  });

  it('reads the Data Download Program package with a daily (every calendar day) series and several other series', () => {
    const xml = fixtureText('iorb/daily-frequency.xml');
    expect(xml).toContain('<frb:DataSet id="PRATES_POLICY_RATES"');
    expect(xml).toContain('FREQ="8" INSTRUMENT="RESBM" SERIES_NAME="RESBM_N.D" UNIT="Percent" UNIT_MULT="1"');
    const iorb = seriesOf(parsePratesArchive(fixture('iorb/daily-frequency.zip')), 'policy.iorb');
    // 2026-09-14 … 2026-10-21, weekends and the Oct 12 holiday included.
    expect(iorb.observations).toHaveLength(38);
    expect(iorb.newestDate).toBe('2026-10-21');
    expect(entryOn(iorb, '2026-10-18')).toMatchObject({ state: 'accepted', exact: '3.9' }); // a Sunday
    expect(entryOn(iorb, '2026-10-12')).toMatchObject({ state: 'accepted', exact: '3.9' });
    expect(entryOn(iorb, '2026-09-17')).toMatchObject({ exact: '4.15', value: 4.15 });
    expect(entryOn(iorb, '2026-09-18')).toMatchObject({ exact: '3.9', value: 3.9 });
  });

  it('names the members an archive holds when PRATES_data.xml is not among them', () => {
    const error = documentFailure(() => parsePratesArchive(fixture('iorb/wrong-member-name.zip')), 'document_member_missing');
    expect(error.message).toContain('"prates_data.xml", "PRATES_struct.xsd"');
  });

  it('skips observations whose status is not A (a gap, not a value)', () => {
    expect(iorbOf('valid').observations.some((o) => o.date === '2026-10-12')).toBe(false);
  });

  it('gives the same result from the archive and from its XML member', () => {
    expect(parsePratesXml(fixtureText('iorb/valid.xml'))).toEqual(parsePratesArchive(fixture('iorb/valid.zip')));
    expect(extractPratesXml(fixture('iorb/valid.zip'))).toEqual(fixture('iorb/valid.xml'));
  });

  it.each(['doctype', 'entity'])('refuses XML with a %s declaration', (name) => {
    const error = documentFailure(() => parsePratesArchive(fixture(`iorb/${name}.zip`)), 'document_declaration_refused');
    expect(error.message).toMatch(/DOCTYPE/);
  });

  it('refuses an archive holding only the legacy RESBME_N.D series', () => {
    const error = documentFailure(() => parsePratesArchive(fixture('iorb/legacy-only.zip')), 'document_legacy_series_only');
    expect(error.message).toContain('RESBME_N.D');
  });

  it('refuses an archive without the IORB series, or with it twice', () => {
    documentFailure(() => parsePratesArchive(fixture('iorb/no-iorb-series.zip')), 'document_series_missing');
    documentFailure(() => parsePratesArchive(fixture('iorb/duplicate-series.zip')), 'document_series_duplicate');
  });

  it('refuses a unit other than Percent with multiplier 1', () => {
    documentFailure(() => parsePratesArchive(fixture('iorb/wrong-unit.zip')), 'document_unit_mismatch');
    documentFailure(() => parsePratesArchive(fixture('iorb/wrong-unit-mult.zip')), 'document_unit_mismatch');
  });

  it('refuses duplicate and impossible TIME_PERIOD dates', () => {
    expect(documentFailure(() => parsePratesArchive(fixture('iorb/duplicate-date.zip')), 'document_duplicate_date').message).toContain('2026-10-20');
    documentFailure(() => parsePratesArchive(fixture('iorb/impossible-date.zip')), 'document_bad_date');
  });

  it('refuses XML that is not well-formed', () => {
    documentFailure(() => parsePratesArchive(fixture('iorb/malformed.zip')), 'document_malformed_xml');
    documentFailure(() => parsePratesXml('<a/><b/>'), 'document_malformed_xml');
    documentFailure(() => parsePratesXml('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'), 'document_malformed_xml');
    documentFailure(() => parsePratesXml(new Uint8Array([0x3c, 0x61, 0xe9, 0x2f, 0x3e])), 'document_not_utf8');
  });

  it.each([
    ['2026-10-20', 'NaN'],
    ['2026-10-19', '.'],
    ['2026-10-16', ''],
    ['2026-10-15', 'NA'],
    ['2026-10-14', 'Infinity'],
    ['2026-10-13', '3,90'],
  ])('rejects the OBS_VALUE of %s given as %j', (date, text) => {
    const error = rejection(iorbOf('invalid-values'), date, 'document_not_a_number');
    expect(error.message).toContain(JSON.stringify(text));
  });

  it('rejects an IORB outside -5 to 20 percent (basis points, another field), as the Board page parser does', () => {
    const xml = fixtureText('iorb/valid.xml').replace('OBS_VALUE="3.90" TIME_PERIOD="2026-10-21"', 'OBS_VALUE="390" TIME_PERIOD="2026-10-21"');
    const iorb = seriesOf(parsePratesXml(xml), 'policy.iorb');
    expect(rejection(iorb, '2026-10-21', 'document_implausible_rate').message).toMatch(/"390", outside -5 to 20 percent/);
    expect(entryOn(iorb, '2026-10-20').state).toBe('accepted');
  });

  it('accepts exact decimal text with surrounding whitespace and keeps only valid dates as newest', () => {
    const series = iorbOf('invalid-values');
    expect(acceptedValues(series)).toEqual([['2026-10-21', 3.9], ['2026-10-08', 3.9]]);
    expect(series.observations.some((o) => o.date === '2026-10-09')).toBe(false);
    expect(series.newestDate).toBe('2026-10-21');
  });
});

describe('PRATES zip handling', () => {
  it('refuses damaged or foreign archives', () => {
    documentFailure(() => parsePratesArchive(fixture('iorb/truncated.zip')), 'document_bad_zip');
    documentFailure(() => parsePratesArchive(fixture('iorb/valid.xml')), 'document_bad_zip');
    documentFailure(() => parsePratesArchive(new Uint8Array(0)), 'document_bad_zip');
  });

  it('requires the member PRATES_data.xml by its exact name', () => {
    documentFailure(() => parsePratesArchive(fixture('iorb/wrong-member-name.zip')), 'document_member_missing');
  });

  it('refuses a member that unpacks to more than 2,000,000 bytes and accepts one of exactly that size', () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?><MessageGroup><!--';
    const tail = '--></MessageGroup>';
    const xml = head + ' '.repeat(2_000_001 - head.length - tail.length) + tail;
    const zip = zipSync({ 'PRATES_data.xml': strToU8(xml) });
    expect(zip.length).toBeLessThan(10_000);
    const error = documentFailure(() => parsePratesArchive(zip), 'document_too_large');
    expect(error.message).toContain('2000001');
    const justFits = zipSync({ 'PRATES_data.xml': strToU8(fixtureText('iorb/valid.xml').padEnd(2_000_000, ' ')) });
    expect(seriesOf(parsePratesArchive(justFits), 'policy.iorb').newestDate).toBe('2026-10-21');
  });

  it('refuses an archive body over 2,000,000 bytes', () => {
    documentFailure(() => parsePratesArchive(new Uint8Array(2_000_001)), 'document_too_large');
  });
});

describe('DOCTYPE and ENTITY refusal', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('happens before any XML validation or parsing', () => {
    const validate = vi.spyOn(XMLValidator, 'validate');
    const parse = vi.spyOn(XMLParser.prototype, 'parse');
    documentFailure(() => parsePratesXml(fixtureText('iorb/entity.xml')), 'document_declaration_refused');
    documentFailure(() => parsePratesXml(fixtureText('iorb/doctype.xml')), 'document_declaration_refused');
    expect(validate).not.toHaveBeenCalled();
    expect(parse).not.toHaveBeenCalled();
    parsePratesXml(fixtureText('iorb/valid.xml'));
    expect(validate).toHaveBeenCalledTimes(1);
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('wins over any syntax error later in the document, in any letter case', () => {
    documentFailure(() => parsePratesXml('<?xml version="1.0"?>\n<!doctype x [<!entity y "z">]>\n<unclosed'), 'document_declaration_refused');
    documentFailure(() => parsePratesXml('<x><!ENTITY y "z"></x'), 'document_declaration_refused');
  });
});

describe('committed PRATES archives', () => {
  it('match a fresh build from their XML sources', () => {
    const built = buildAllPratesZips();
    expect(built.length).toBeGreaterThanOrEqual(17);
    for (const archive of built) {
      const committed = new Uint8Array(readFileSync(path.join(REPO_ROOT, archive.path)));
      expect({ path: archive.path, equal: Buffer.from(committed).equals(Buffer.from(archive.bytes)) }).toEqual({ path: archive.path, equal: true });
    }
  });
});
