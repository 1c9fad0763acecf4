// The page packet downloads point at with `Link: <…>; rel="license"`: where each figure
// comes from and whose terms govern it. Plain text, served by the funding routes.

import { IORB_DOCUMENTS, IORB_METRICS, PUBLISHER_DOCUMENTS, METRICS } from './publishers/catalogue.js';
import { PUBLISHER_NOTICE, SOURCE_TERMS } from './terms.js';

export const FUNDING_SOURCES_PATH = '/funding/sources.md';

function page(): string {
  const lines = [
    '# Funding evidence: sources and terms',
    '',
    'Every packet is built from seven public documents that this service downloads itself from',
    'the publishers (in sample mode: from made-up documents bundled with the service, and every',
    'response says "sample": true). The packet\'s manifest lists, for each document, the URL,',
    'the retrieval time, the byte count and the SHA-256 of the exact bytes that were read.',
    '',
    '## Documents',
    '',
    ...PUBLISHER_DOCUMENTS.map((d) => `- ${d.key}: ${d.defaultUrl}${d.sourceId === undefined ? '' : ` (source_id ${d.sourceId})`}`),
    `- iorb, when the service is configured to read the Board's page instead: ${IORB_DOCUMENTS.board_iorb_page.defaultUrl} (source_id board_iorb_page)`,
    '',
    '## Metrics',
    '',
    ...METRICS.map((m) => `- ${m.id} (${m.unit}, ${m.cadence}): ${m.source}; field ${m.field}`),
    `- policy.iorb from the Board's page: ${IORB_METRICS.board_iorb_page.source}; field ${IORB_METRICS.board_iorb_page.field}`,
    '',
    '## Terms of the publishers',
    '',
    ...Object.entries(SOURCE_TERMS).map(([who, url]) => `- ${who}: ${url}`),
    '',
    PUBLISHER_NOTICE,
    '',
    'Evidence Desk adds no licence of its own to the figures: reuse them under the publishers\' terms.',
    '',
  ];
  return lines.join('\n');
}

export const FUNDING_SOURCES_PAGE = page();
