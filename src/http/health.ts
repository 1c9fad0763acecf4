import { implementationSha256, SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';
import { encodePythonBody } from '../core/json.js';
import type { HealthBody } from './routes/system.js';

/** The analysis upstream's health body, as its own prefix answers it. */
export type AnalysisHealthBody = Omit<HealthBody, 'scope' | 'upstream_status' | 'release_id'>;

/**
 * Liveness body. It keeps the analysis upstream's health keys (clients of that service
 * read `name`/`version`) and says which service actually answered.
 */
export function healthBody(): AnalysisHealthBody {
  return {
    name: 'noisefloor',
    version: '0.4.0',
    transport: 'streamable-http',
    implementation_sha256: implementationSha256(),
    status: 'ok',
    service: SERVICE_NAME,
    service_version: SERVICE_VERSION,
  };
}

/**
 * The root liveness body: the analysis upstream's keys plus the data API upstream's
 * (`status`, `scope`, `upstream_status`, `release_id`), so clients of either read theirs.
 */
export function serviceHealthBody(releaseId: string): HealthBody {
  return { ...healthBody(), scope: 'backend_process_only', upstream_status: 'not_checked', release_id: releaseId };
}

/**
 * The root liveness body as sent at `/healthz`, `/health` and their `/noisefloor` copies: in
 * the analysis upstream's encoding (Python separators), encoded once.
 */
export function serviceHealthBytes(releaseId: string): Buffer {
  return Buffer.from(encodePythonBody(serviceHealthBody(releaseId)), 'utf8');
}
