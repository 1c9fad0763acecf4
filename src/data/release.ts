// Release identity (upstream §3.1): build provenance, fixed for the life of the process.
// It asserts nothing about data freshness or readiness. The commit is operator supplied
// (EVIDENCE_RELEASE_COMMIT) and checked at start: anything but 40 lowercase hex stops the
// service (src/core/config.ts), so a typo never publishes a wrong identity.
import { SERVICE_NAME, SERVICE_VERSION } from '../core/build-info.js';
import type { Config } from '../core/config.js';
import type { Release } from './schemas.js';

export const RELEASE_SCHEMA = 'financial-evidence.workspace-release.v1';
export const WORKSPACE_CONTRACT = 'financial-evidence.workspace.v1';
/** The version of the upstream workspace API these routes are compatible with. */
export const WORKSPACE_VERSION = '1.2.0';

export type ReleaseIdentity = Release;

export function releaseIdentity(config: Pick<Config, 'releaseCommit'>): ReleaseIdentity {
  const commit = config.releaseCommit;
  return {
    schema: RELEASE_SCHEMA,
    release_id: commit ? `workspace-${WORKSPACE_VERSION}+${commit.slice(0, 12)}` : 'unversioned-local',
    workspace_version: WORKSPACE_VERSION,
    package_version: SERVICE_VERSION,
    source_commit: commit,
    contract: WORKSPACE_CONTRACT,
    // The project publishes no repository URL; the package name is what identifies it.
    source_repository: SERVICE_NAME,
    identity_scope: 'operator_supplied_build_revision',
    institutional_readiness: 'not_certified',
  };
}
