// Contracts of application keys: enrollment and erasure by the key holder.
import { ApplicationErrors } from '../../applications/errors.js';
import { ENROLLMENT_BODY_LIMIT, ENROLLMENTS_PER_UTC_DAY, RETAINED_APPLICATIONS_LIMIT } from '../../applications/enroll.js';
import { ConsentBody, EnrollmentResponse, RevocationResponse } from '../../applications/schemas.js';
import { defineRoute } from '../contract.js';

const tags = ['funding evidence: application keys'];
const count = (n: number) => n.toLocaleString('en-US');

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

export const APPLICATION_ROUTES = [EnrollApplication, EraseCurrentApplication] as const;
