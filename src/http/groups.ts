// The groups the service serves. Each lists its route contracts and the plugin that
// implements them; the shell mounts the plugin at the root and again under the group's
// upstream prefix, so clients of the original paths work unchanged. A new group adds one
// entry here (see docs/CONTRACTS.md).
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { RouteContract } from './contract.js';
import type { ErrorShape } from './error-schemas.js';
import { analysisPlugin, ANALYSIS_DISCOVERY_PATHS, ANALYSIS_PREFIX, setAnalysisHeaders } from './plugins/analysis.js';
import { applicationsPlugin } from './plugins/applications.js';
import { dataPlugin } from './plugins/data.js';
import { dataReviewPlugin } from './plugins/data-review.js';
import { fundingPlugin } from './plugins/funding.js';
import { pagePlugin } from './plugins/page.js';
import { systemPlugin } from './plugins/system.js';
import type { GroupPluginOptions } from './route.js';
import { ANALYSIS_ROUTES } from './routes/analysis.js';
import { APPLICATION_ROUTES } from './routes/applications.js';
import { DATA_ROUTES } from './routes/data.js';
import { DATA_REVIEW_ROUTES } from './routes/data-review.js';
import { FUNDING_ROUTES } from './routes/funding.js';
import { PAGE_ROUTES } from './routes/page.js';
import { SYSTEM_ROUTES } from './routes/system.js';

export interface GroupDefinition {
  name: string;
  /** Upstream path prefix, e.g. '/noisefloor'; '' when the group lives at the root only. */
  prefix: string;
  /** Error body shape for this group's routes. */
  shape: ErrorShape;
  /** Every operation the group serves; the plugin must serve each one, and nothing else visible. */
  routes: readonly RouteContract[];
  plugin: FastifyPluginAsync<GroupPluginOptions>;
  /**
   * Headers every answer for the group's paths carries: its plugin sets them on its own
   * routes, and the shell on the answers it gives for them (404, 405).
   */
  answerHeaders?: (reply: FastifyReply) => void;
  /** Root paths outside the group's namespaces whose shell answers carry its headers too. */
  headerPaths?: ReadonlySet<string>;
}

export const GROUPS: readonly GroupDefinition[] = [
  { name: 'system', prefix: '', shape: 'any', routes: SYSTEM_ROUTES, plugin: systemPlugin },
  { name: 'page', prefix: '', shape: 'any', routes: PAGE_ROUTES, plugin: pagePlugin },
  {
    name: 'analysis',
    prefix: ANALYSIS_PREFIX,
    shape: 'analysis',
    routes: ANALYSIS_ROUTES,
    plugin: analysisPlugin,
    answerHeaders: setAnalysisHeaders,
    // The reference's discovery paths are answered at the root too, with its headers, and
    // so is its /mcp (served beside the groups, src/http/plugins/mcp.ts).
    headerPaths: new Set([...ANALYSIS_DISCOVERY_PATHS, '/mcp']),
  },
  { name: 'funding', prefix: '/funding-evidence', shape: 'evidence', routes: FUNDING_ROUTES, plugin: fundingPlugin },
  { name: 'applications', prefix: '/funding-evidence', shape: 'evidence', routes: APPLICATION_ROUTES, plugin: applicationsPlugin },
  { name: 'data', prefix: '/openbb', shape: 'evidence', routes: DATA_ROUTES, plugin: dataPlugin },
  // Issue 12's data routes (funding review, agents, research kit): their own plugin, same
  // prefix and error shape; they share the data group's context (src/http/data-context.ts).
  { name: 'data-review', prefix: '/openbb', shape: 'evidence', routes: DATA_REVIEW_ROUTES, plugin: dataReviewPlugin },
];
