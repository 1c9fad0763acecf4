// Request and response bodies of enrollment and erasure.
import { Type, type Static } from 'typebox';

export const ConsentBody = Type.Object(
  { measurement_consent: Type.Literal(true) },
  { additionalProperties: false, description: 'Exactly {"measurement_consent": true}: nothing else is accepted.' },
);

export const EnrollmentResponse = Type.Object(
  {
    application_id: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    token: Type.String({ pattern: '^fe_[A-Za-z0-9_-]{43}$', description: 'Shown once; only its SHA-256 is stored.' }),
    token_type: Type.Literal('Bearer'),
    classification: Type.Union([Type.Literal('unverified'), Type.Literal('internal')]),
    independent_ownership_verified: Type.Literal(false),
    quota: Type.String(),
    completion_retention_days: Type.Integer(),
    credential_expiry: Type.String(),
    erase: Type.String(),
  },
  { additionalProperties: false, description: 'The new key; the token is never shown again.' },
);
export type EnrollmentBody = Static<typeof EnrollmentResponse>;

export const RevocationResponse = Type.Object(
  {
    deleted: Type.Literal(true),
    credential_revoked: Type.Literal(true),
    anonymous_aggregate_counts_retained: Type.Literal(true),
  },
  { additionalProperties: false, description: 'The key and its completions are gone; anonymous counters stay.' },
);
export type RevocationBody = Static<typeof RevocationResponse>;

// Consented browser counters (POST /events, POST /forget).

export const BrowserEventBody = Type.Object(
  {
    visitor: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    consent: Type.Literal(true),
    packet_id: Type.String({ pattern: '^[0-9]{8}T[0-9]{6}\\.[0-9]{6}Z-[0-9a-f]{32}$' }),
    kind: Type.Literal('packet_download'),
    traffic_class: Type.Union([Type.Literal('browser'), Type.Literal('operator')]),
  },
  { additionalProperties: false, description: 'Exactly these five members; the visitor id is a random 32-hex id the page created after consent.' },
);
export type BrowserEvent = Static<typeof BrowserEventBody>;

export const BrowserEventRecorded = Type.Object(
  {
    recorded: Type.Boolean({ description: 'False when the same visitor already sent this event today.' }),
    scope: Type.Literal('unverified_consented_browser_event'),
  },
  { additionalProperties: false },
);

export const BrowserEventExcluded = Type.Object(
  { recorded: Type.Literal(false), reason: Type.Literal('operator_excluded') },
  { additionalProperties: false },
);

export const BrowserEventResponse = Type.Union([BrowserEventRecorded, BrowserEventExcluded]);
export type BrowserEventAnswer = Static<typeof BrowserEventResponse>;

export const ForgetBody = Type.Object(
  { visitor: Type.String({ pattern: '^[0-9a-f]{32}$' }), consent: Type.Literal(true) },
  { additionalProperties: false, description: 'Exactly {visitor, consent: true}.' },
);
export type ForgetRequest = Static<typeof ForgetBody>;

export const ForgetResponse = Type.Object({ deleted: Type.Literal(true) }, { additionalProperties: false });
