// Error codes of application keys (enrollment, credentials, erasure) and the usage store.
//
// A credential problem is always a 401 (never a silent fall back to anonymous), and a
// store that cannot answer is always a 503 with Retry-After (never "treat as anonymous").

import { defineErrors } from '../core/errors.js';
import { KEY_EXPIRY_DAYS } from './retention.js';

export const ApplicationErrors = defineErrors('applications', {
  consent_required: {
    status: 400,
    meaning: 'Enrollment needs exactly the JSON body {"measurement_consent": true}: the value true and no other member.',
  },
  origin_not_allowed: {
    status: 403,
    meaning: 'Keys can only be created or erased without an Origin header or from an origin this service lists.',
  },
  enrollment_allowance_reached: {
    status: 429,
    meaning: 'The daily or total allowance of retained application keys is used up; retry after the advised delay.',
  },
  invalid_credential: {
    status: 401,
    meaning: 'The Authorization header is not exactly "Bearer " followed by an fe_ token of 43 base64url characters.',
  },
  unknown_credential: {
    status: 401,
    meaning: `The application key is not known here: never issued, erased, or expired after ${KEY_EXPIRY_DAYS} days without use.`,
  },
  credential_required: {
    status: 401,
    meaning: 'Erasing an application needs its key in the Authorization header.',
  },
  identity_storage_unavailable: {
    status: 503,
    meaning: 'The store holding application keys could not be read, so the key could not be checked.',
  },
  event_origin_not_allowed: {
    status: 403,
    meaning: 'Browser events and forget requests are accepted only with an Origin header naming this service or an origin it lists.',
  },
  invalid_usage_event: {
    status: 400,
    meaning: 'The body is not exactly {visitor, consent: true, packet_id, kind: "packet_download", traffic_class} (or {visitor, consent: true} to forget).',
  },
  usage_event_packet_unavailable: {
    status: 400,
    meaning: 'The event names a packet this archive does not hold, or one that fails verification.',
  },
  usage_event_allowance_reached: {
    status: 400,
    meaning: 'Today\'s allowance of browser events, overall or for this visitor, is used up.',
  },
  application_storage_unavailable: {
    status: 503,
    meaning: 'The store holding application keys could not complete the enrollment or erasure.',
  },
});

/** Seconds a client should wait before retrying after a store failure. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;
