// Federal Reserve Board PRATES (policy rates) package from the Data Download Program: a
// zip whose member `PRATES_data.xml` holds SDMX-style `Series` elements (data set
// PRATES_POLICY_RATES). IORB is the series `RESBM_N.D`, in percent with multiplier 1.
// Its frequency code is 8 ("daily, every calendar day"): weekends and holidays carry the
// rate in effect like any other day, so the series is not on the SOFR business-day
// calendar — the review date is where the two meet, which needs no special handling.
//
// The XML comes from outside, so any DOCTYPE or ENTITY declaration is refused on the raw
// text before an XML parser sees it: entity expansion and external references are not
// something a data file needs, and refusing them up front removes that whole class of
// attack instead of relying on a parser's limits.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { unzipSync } from 'fflate';

import { parseDecimalText } from '../decimal.js';
import { PublisherDocumentError } from '../errors.js';
import {
  MAX_PUBLISHER_BYTES,
  acceptedObservation,
  buildSeries,
  checkedDate,
  decodeUtf8,
  describeValue,
  fail,
  requireSize,
  rejectedObservation,
} from './body.js';
import { rateProblem } from './amounts.js';
import type { DatedObservation, IsoDate, PublisherBody, PublisherDocument } from './types.js';

export const PRATES_MEMBER = 'PRATES_data.xml';
export const IORB_SERIES = 'RESBM_N.D';
/** The series name IORB was published under before the current one; not accepted. */
export const LEGACY_IORB_SERIES = 'RESBME_N.D';

const DOCUMENT = 'iorb';

/** The bytes of `PRATES_data.xml` from the zip, refusing damaged archives and oversized members. */
export function extractPratesXml(body: Uint8Array): Uint8Array {
  requireSize(DOCUMENT, body);
  let occurrences = 0;
  let declaredSize = 0;
  const members: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(body, {
      filter: (file) => {
        members.push(file.name);
        if (file.name !== PRATES_MEMBER) return false;
        occurrences += 1;
        declaredSize = file.originalSize;
        // Checked before inflating: the output buffer is sized from this declaration.
        return file.originalSize <= MAX_PUBLISHER_BYTES;
      },
    });
  } catch (cause) {
    return fail(DOCUMENT, 'document_bad_zip', `body is not a readable zip archive (${cause instanceof Error ? cause.message : String(cause)})`,
      undefined, cause);
  }
  if (occurrences === 0) {
    const listed = members.slice(0, 5).map((m) => JSON.stringify(m.slice(0, 60))).join(', ');
    fail(DOCUMENT, 'document_member_missing',
      `the archive has no member named ${PRATES_MEMBER} (it holds ${members.length === 0 ? 'no members' : listed}${members.length > 5 ? ', …' : ''})`);
  }
  if (occurrences > 1) fail(DOCUMENT, 'document_bad_zip', `the archive holds ${occurrences} members named ${PRATES_MEMBER}`);
  if (declaredSize > MAX_PUBLISHER_BYTES) {
    fail(DOCUMENT, 'document_too_large', `${PRATES_MEMBER} unpacks to ${declaredSize} bytes, more than the ${MAX_PUBLISHER_BYTES} bytes accepted`);
  }
  const xml = files[PRATES_MEMBER];
  if (xml === undefined || xml.byteLength !== declaredSize) {
    fail(DOCUMENT, 'document_bad_zip', `${PRATES_MEMBER} does not unpack to the ${declaredSize} bytes its header declares`);
  }
  return xml;
}

/** Throws unless the XML text is free of DOCTYPE and ENTITY declarations (any letter case). */
export function refuseXmlDeclarations(text: string): void {
  const found = /<!(DOCTYPE|ENTITY)/i.exec(text);
  if (found) {
    fail(DOCUMENT, 'document_declaration_refused', `${PRATES_MEMBER} contains a ${found[1].toUpperCase()} declaration, which is refused`);
  }
}

type XmlNode = Record<string, unknown>;

interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlNode[];
}

function asElement(node: XmlNode): XmlElement | null {
  const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text');
  if (name === undefined) return null;
  const children = node[name];
  const attributes = (node[':@'] ?? {}) as Record<string, string>;
  return { name, attributes, children: Array.isArray(children) ? (children as XmlNode[]) : [] };
}

function parseXmlTree(text: string): XmlElement[] {
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    fail(DOCUMENT, 'document_malformed_xml', `${PRATES_MEMBER} is not well-formed XML (line ${verdict.err.line}: ${verdict.err.msg})`);
  }
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    removeNSPrefix: true,
    parseAttributeValue: false,
    parseTagValue: false,
    processEntities: true,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  let tree: XmlNode[];
  try {
    tree = parser.parse(text) as XmlNode[];
  } catch (cause) {
    return fail(DOCUMENT, 'document_malformed_xml', `${PRATES_MEMBER} could not be parsed (${cause instanceof Error ? cause.message : String(cause)})`,
      undefined, cause);
  }
  const roots = tree.map(asElement).filter((e): e is XmlElement => e !== null);
  if (roots.length !== 1) fail(DOCUMENT, 'document_malformed_xml', `${PRATES_MEMBER} has ${roots.length} root elements instead of one`);
  return roots;
}

function findSeries(roots: readonly XmlElement[]): XmlElement[] {
  const found: XmlElement[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.name === 'Series') found.push(element);
    for (const child of element.children) {
      const e = asElement(child);
      if (e !== null) stack.push(e);
    }
  }
  return found;
}

/** `PRATES_data.xml` (bytes or text) → policy.iorb. */
export function parsePratesXml(xml: PublisherBody): PublisherDocument {
  requireSize(DOCUMENT, xml);
  const text = decodeUtf8(DOCUMENT, xml);
  refuseXmlDeclarations(text);
  const declared = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']*)["']/.exec(text);
  if (declared && !/^utf-?8$/i.test(declared[1])) {
    fail(DOCUMENT, 'document_malformed_xml', `${PRATES_MEMBER} declares the encoding ${JSON.stringify(declared[1])}; only UTF-8 is read`);
  }

  const allSeries = findSeries(parseXmlTree(text));
  const iorb = allSeries.filter((s) => s.attributes.SERIES_NAME === IORB_SERIES);
  if (iorb.length === 0) {
    if (allSeries.some((s) => s.attributes.SERIES_NAME === LEGACY_IORB_SERIES)) {
      fail(DOCUMENT, 'document_legacy_series_only', `only the retired series ${LEGACY_IORB_SERIES} is present, not ${IORB_SERIES}`);
    }
    fail(DOCUMENT, 'document_series_missing', `no series named ${IORB_SERIES}`);
  }
  if (iorb.length > 1) fail(DOCUMENT, 'document_series_duplicate', `the series ${IORB_SERIES} appears ${iorb.length} times`);
  const series = iorb[0];
  const where = `Series[SERIES_NAME=${IORB_SERIES}]`;
  const { UNIT, UNIT_MULT } = series.attributes;
  if (UNIT !== 'Percent' || UNIT_MULT !== '1') {
    fail(DOCUMENT, 'document_unit_mismatch', `${IORB_SERIES} has UNIT ${describeValue(UNIT)} and UNIT_MULT ${describeValue(UNIT_MULT)}; expected "Percent" and "1"`, where);
  }

  const seen = new Set<IsoDate>();
  const entries: DatedObservation[] = [];
  for (const child of series.children) {
    const obs = asElement(child);
    if (obs === null || obs.name !== 'Obs') continue;
    const { TIME_PERIOD, OBS_VALUE, OBS_STATUS } = obs.attributes;
    const date = checkedDate(TIME_PERIOD);
    if (date === null) {
      fail(DOCUMENT, 'document_bad_date', `an ${IORB_SERIES} observation has TIME_PERIOD ${describeValue(TIME_PERIOD)}, not a real YYYY-MM-DD date`, `${where}/Obs`);
    }
    const location = `${where}/Obs[TIME_PERIOD=${date}]`;
    if (seen.has(date)) fail(DOCUMENT, 'document_duplicate_date', `${IORB_SERIES} has two observations for ${date}`, location);
    seen.add(date);
    // Only status A is an available value; other statuses mark gaps, not observations.
    if (OBS_STATUS !== 'A') continue;
    const value = typeof OBS_VALUE === 'string' ? parseDecimalText(OBS_VALUE) : null;
    const implausible = value === null ? undefined : rateProblem(value);
    entries.push(value === null
      ? rejectedObservation(date, new PublisherDocumentError(DOCUMENT, 'document_not_a_number',
        `${IORB_SERIES} OBS_VALUE for ${date} is ${describeValue(OBS_VALUE)}, not a decimal number`, { location }))
      : implausible !== undefined
        ? rejectedObservation(date, new PublisherDocumentError(DOCUMENT, 'document_implausible_rate',
          `${IORB_SERIES} OBS_VALUE for ${date} is ${describeValue(OBS_VALUE)}, ${implausible}`, { location }))
        : acceptedObservation(date, value));
  }
  return Object.freeze({ document: DOCUMENT, series: Object.freeze([buildSeries(DOCUMENT, 'policy.iorb', entries)]) });
}

/** The PRATES zip as downloaded → policy.iorb. */
export function parsePratesArchive(body: Uint8Array): PublisherDocument {
  return parsePratesXml(extractPratesXml(body));
}
