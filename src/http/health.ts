import { implementationSha256, SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';
import type { HealthBody } from './routes/system.js';

/**
 * Liveness body. It keeps the analysis upstream's health keys (clients of that service
 * read `name`/`version`) and says which service actually answered.
 */
export function healthBody(): HealthBody {
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
