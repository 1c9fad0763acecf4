// Contracts of application keys: enrollment and erasure by the key holder.
import { ApplicationErrors } from '../../applications/errors.js';
import { ENROLLMENT_BODY_LIMIT, ENROLLMENTS_PER_UTC_DAY, RETAINED_APPLICATIONS_LIMIT } from '../../applications/enroll.js';
import { BrowserEventBody, BrowserEventResponse, ConsentBody, EnrollmentResponse, ForgetBody, ForgetResponse, RevocationResponse } from '../../applications/schemas.js';
import { BROWSER_EVENT_BODY_LIMIT, BROWSER_EVENT_RETENTION_DAYS, BROWSER_EVENTS_PER_DAY, BROWSER_EVENTS_PER_VISITOR_PER_DAY } from '../../applications/browser-events.js';
import { groupThousands as count } from '../../core/strings.js';
import { defineRoute } from '../contract.js';

const tags = ['funding evidence: application keys'];

export const EnrollApplication = defineRoute({
  method: 'POST',
  url: '/v1/applications',
  operationId: 'enrollApplication',
  summary: 'Create an application key (explicit measurement consent)',
  description:
    `Send exactly {"measurement_consent": true} as application/json (at most ${ENROLLMENT_BODY_LIMIT} bytes). The token in the answer is shown once; ` +
    `send it as "Authorization: Bearer <token>" on latest, changes and history. At most ${count(ENROLLMENTS_PER_UTC_DAY)} new keys per UTC date and ` +
    `${count(RETAINED_APPLICATIONS_LIMIT)} retained keys (429 with Retry-After).`,
  tags,
  body: ConsentBody,
  bodyCheckedByOperation: true,
  success: { 201: { description: 'The new key.', content: { 'application/json': EnrollmentResponse } } },
  errors: [
    ApplicationErrors.origin_not_allowed,
    ApplicationErrors.consent_required,
    ApplicationErrors.enrollment_allowance_reached,
    ApplicationErrors.application_storage_unavailable,
  ],
});

export const EraseCurrentApplication = defineRoute({
  method: 'DELETE',
  url: '/v1/applications/current',
  operationId: 'eraseCurrentApplication',
  summary: 'Erase the application whose key authorizes this request',
  description: 'Deletes the key and its completions; anonymous aggregate counters remain. The key is refused from then on.',
  tags,
  success: { 200: { description: 'The key is erased.', content: { 'application/json': RevocationResponse } } },
  errors: [
    ApplicationErrors.origin_not_allowed,
    ApplicationErrors.credential_required,
    ApplicationErrors.invalid_credential,
    ApplicationErrors.unknown_credential,
    ApplicationErrors.identity_storage_unavailable,
    ApplicationErrors.application_storage_unavailable,
  ],
});

// The data API upstream's measurement routes (data-upstream §3.7) are the same two
// operations under its own path: the same keys, bodies and refusals.
const dataTags = ['data: application keys'];

export const EnrollDataApplication = defineRoute({
  ...EnrollApplication,
  url: '/api/v1/applications',
  operationId: 'enrollDataApplication',
  summary: 'Create an application key under the data API path (the same keys as /v1/applications)',
  tags: dataTags,
  rootOnly: true,
});

export const EraseCurrentDataApplication = defineRoute({
  ...EraseCurrentApplication,
  url: '/api/v1/applications/current',
  operationId: 'eraseCurrentDataApplication',
  summary: 'Erase the application whose key authorizes this request, under the data API path',
  tags: dataTags,
  rootOnly: true,
});

const browserTags = ['funding evidence: consented browser counters'];

export const RecordBrowserEvent = defineRoute({
  method: 'POST',
  url: '/events',
  operationId: 'recordBrowserEvent',
  summary: 'Count one verified packet download from a consenting browser',
  description:
    `Sent by this service's page (or a listed origin) after its user ticked consent and a download verified in the browser. Origin must be this service or a configured origin; ` +
    `application/json of at most ${BROWSER_EVENT_BODY_LIMIT} bytes. The visitor is stored only as HMAC-SHA-256 under a secret held by the service; one event per visitor, UTC date, packet and kind; ` +
    `at most ${count(BROWSER_EVENTS_PER_DAY)} events per date and ${BROWSER_EVENTS_PER_VISITOR_PER_DAY} per visitor per date; kept ${BROWSER_EVENT_RETENTION_DAYS} UTC dates.`,
  tags: browserTags,
  body: BrowserEventBody,
  bodyCheckedByOperation: true,
  success: { 200: { description: 'Whether a new event was counted (false for a repeat or for operator traffic).', content: { 'application/json': BrowserEventResponse } } },
  errors: [
    ApplicationErrors.event_origin_not_allowed,
    ApplicationErrors.invalid_usage_event,
    ApplicationErrors.usage_event_packet_unavailable,
    ApplicationErrors.usage_event_allowance_reached,
    ApplicationErrors.application_storage_unavailable,
  ],
});

export const ForgetBrowserVisitor = defineRoute({
  method: 'POST',
  url: '/forget',
  operationId: 'forgetBrowserVisitor',
  summary: "Delete every counted event of a browser's visitor id",
  description: 'Send exactly {"visitor": <the 32-hex id>, "consent": true} from an allowed origin. Deletes the events stored under that visitor.',
  tags: browserTags,
  body: ForgetBody,
  bodyCheckedByOperation: true,
  success: { 200: { description: 'The visitor\'s events are deleted (also when there were none).', content: { 'application/json': ForgetResponse } } },
  errors: [ApplicationErrors.event_origin_not_allowed, ApplicationErrors.invalid_usage_event, ApplicationErrors.application_storage_unavailable],
});

export const APPLICATION_ROUTES = [EnrollApplication, EraseCurrentApplication, EnrollDataApplication, EraseCurrentDataApplication, RecordBrowserEvent, ForgetBrowserVisitor] as const;
