// The groups the service serves. Each is mounted at the root and again under the
// upstream service's prefix, so clients of the original paths work unchanged.
import type { FastifyPluginAsync } from 'fastify';
import type { GroupPluginOptions } from './deps.js';
import type { ErrorShape } from './errors.js';
import { analysisOwnsPath, analysisPlugin, ANALYSIS_PREFIX } from './plugins/analysis.js';
import { applicationsPlugin } from './plugins/applications.js';
import { fundingPlugin } from './plugins/funding.js';

export interface GroupDefinition {
  name: string;
  /** Upstream path prefix, e.g. '/noisefloor'. */
  prefix: string;
  /** Error body shape for this group's routes. */
  shape: ErrorShape;
  /** Root-mounted paths that belong to this group (for unknown-route bodies). */
  ownsPath?: (path: string) => boolean;
  plugin: FastifyPluginAsync<GroupPluginOptions>;
}

export const GROUPS: GroupDefinition[] = [
  { name: 'analysis', prefix: ANALYSIS_PREFIX, shape: 'analysis', ownsPath: analysisOwnsPath, plugin: analysisPlugin },
  {
    name: 'funding',
    prefix: '/funding-evidence',
    shape: 'evidence',
    ownsPath: (path) => path.startsWith('/v1/funding/') || path.startsWith('/packets/') || path === '/funding/sources.md',
    plugin: fundingPlugin,
  },
  {
    name: 'funding-applications',
    prefix: '/funding-evidence',
    shape: 'evidence',
    ownsPath: (path) => path === '/v1/applications' || path.startsWith('/v1/applications/'),
    plugin: applicationsPlugin,
  },
];
