// Contracts of the shell's own operations: liveness and readiness.
import { Type, type Static } from 'typebox';
import { CoreErrors } from '../../core/errors.js';
import { defineRoute } from '../contract.js';

const Str = Type.String();

export const HealthResponse = Type.Object(
  {
    name: Type.Literal('noisefloor'),
    version: Str,
    transport: Str,
    implementation_sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    status: Type.Literal('ok'),
    service: Str,
    service_version: Str,
    scope: Type.Literal('backend_process_only', { description: 'What was checked: this process answers (the data API upstream\'s health key).' }),
    upstream_status: Type.Literal('not_checked', { description: 'Liveness never contacts a publisher or source.' }),
    release_id: Type.String({ description: 'The release identity of /api/v1/release.' }),
  },
  { additionalProperties: false },
);
export type HealthBody = Static<typeof HealthResponse>;

export const ReadyResponse = Type.Object(
  {
    status: Type.Literal('ready'),
    storage: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
    mode: Type.Union([Type.Literal('live'), Type.Literal('sample')]),
  },
  { additionalProperties: false },
);
export type ReadyBody = Static<typeof ReadyResponse>;

const tags = ['system'];

export const Health = defineRoute({
  method: 'GET',
  url: '/healthz',
  operationId: 'health',
  summary: 'Liveness: the process is serving requests',
  tags,
  success: { 200: { description: 'The process is serving requests.', content: { 'application/json': HealthResponse } } },
  errors: [],
});

export const Readiness = defineRoute({
  method: 'GET',
  url: '/readyz',
  operationId: 'readiness',
  summary: 'Readiness: the store can serve the storage routes',
  tags,
  success: { 200: { description: 'The store answered.', content: { 'application/json': ReadyResponse } } },
  errors: [CoreErrors.storage_unavailable],
});

export const SYSTEM_ROUTES = [Health, Readiness] as const;
