import { describe, expect, it } from 'vitest';
import { lookupError } from '../../src/core/errors.js';
import { describeFailure } from '../../src/funding/capture.js';
import {
  FundingErrors,
  PublisherDocumentError,
  PublisherDocumentReasons,
  PublisherFetchReasons,
  PublisherObservationMissingError,
  PublisherObservationReasons,
  PublisherUnavailableError,
} from '../../src/funding/errors.js';

describe('capture failure codes', () => {
  it('are all in the one registry: classes, reasons, and what the capture command reports', () => {
    const reasons = [PublisherFetchReasons, PublisherDocumentReasons, PublisherObservationReasons].flatMap((t) => Object.values(t));
    expect(reasons.length).toBeGreaterThan(30);
    for (const def of reasons) {
      expect(lookupError(def.code)).toBe(def);
      expect(def.status).toBe(502);
      expect(def.code).toMatch(/^(fetch|document|observation|horizon)_[a-z0-9_]+$/);
    }
    for (const code of ['publisher_unavailable', 'publisher_document_invalid', 'publisher_observation_missing', 'capture_in_progress',
      'capture_lease_lost', 'capture_not_recorded', 'capture_invariant_failed', 'artifact_verification_failed', 'storage_unavailable', 'internal_error']) {
      expect(lookupError(code), code).toBeDefined();
    }
    expect(FundingErrors.capture_in_progress.status).toBe(409);
    expect(FundingErrors.capture_lease_lost.status).toBe(409);
  });

  it('become one line naming the class, the document, the reason and where, with the other failed documents', () => {
    const error = new PublisherDocumentError('srf', 'document_incomplete', 'results for 2026-10-20 are incomplete', { location: '/repo/operations/0' });
    expect(describeFailure(error, ['iorb'])).toEqual({
      code: 'publisher_document_invalid',
      text: 'publisher_document_invalid: NY Fed repo results document (srf, document_incomplete at /repo/operations/0): results for 2026-10-20 are incomplete; also failed: iorb',
      document: 'srf',
      reason: 'document_incomplete',
    });
    const fetchFailure = describeFailure(new PublisherUnavailableError('tga', 'fetch_http_status', 'answered HTTP 500', { httpStatus: 500 }));
    expect(fetchFailure).toMatchObject({ code: 'publisher_unavailable', document: 'tga', reason: 'fetch_http_status' });
    expect(describeFailure(new PublisherObservationMissingError('iorb', 'policy.iorb', 'no common date', 'horizon_missing')))
      .toMatchObject({ code: 'publisher_observation_missing', reason: 'horizon_missing' });
    expect(describeFailure(new PublisherObservationMissingError('iorb', 'policy.iorb', 'after today', 'horizon_future')).code).toBe('publisher_document_invalid');
    expect(describeFailure(new Error('boom'))).toEqual({ code: 'internal_error', text: 'internal_error: Error: boom', document: null, reason: null });
  });

  it('stay within 300 characters on one line', () => {
    const long = describeFailure(new PublisherDocumentError('reserves', 'document_row_missing', `line\nbreak ${'x'.repeat(400)}`));
    expect(long.text).toHaveLength(300);
    expect(long.text).not.toMatch(/[\r\n]/);
    expect(long.text.endsWith('…')).toBe(true);
  });
});
