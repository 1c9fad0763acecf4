// The applied narrative policy: defaults overlaid by the caller's keys, keeping the
// caller's number kinds (`86400` and `86400.0` digest differently, as upstream's do).
import { sha256OfDigestJson } from '../../core/json.js';
import { overlayPolicy, type PolicyDefault } from '../policy.js';
import type { NarrativePolicy, NarrativePolicyInput } from './types.js';

// Order matters: the response lists the policy keys in this order.
const DEFAULTS: ReadonlyArray<PolicyDefault<keyof NarrativePolicy>> = [
  { key: 'max_age_seconds', value: 86400, float: false },
  { key: 'max_items', value: 20, float: false },
  { key: 'similarity_threshold', value: 0.8, float: true },
];

/** A fresh object; never shares containers with the request. */
export function applyNarrativePolicy(caller: NarrativePolicyInput | undefined): NarrativePolicy {
  return overlayPolicy<keyof NarrativePolicy, NarrativePolicy>(DEFAULTS, caller);
}

export function narrativePolicyDigest(applied: NarrativePolicy): string {
  return sha256OfDigestJson(applied);
}
