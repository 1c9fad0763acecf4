// The applied market policy: defaults overlaid by the caller's keys. The caller's number
// kinds survive (a caller's `3` stays an int, the default `3.0` stays a float) because
// the policy digest is computed over exactly this object.
import { overlayPolicy, type PolicyDefault } from '../policy.js';
import type { MarketPolicy, MarketPolicyInput } from './types.js';

// Order matters: the response lists the policy keys in this order.
const DEFAULTS: ReadonlyArray<PolicyDefault<keyof MarketPolicy>> = [
  { key: 'baseline_points', value: 30, float: false },
  { key: 'recent_points', value: 3, float: false },
  { key: 'move_threshold', value: 3, float: true },
  { key: 'volatility_ratio', value: 3, float: true },
  { key: 'coverage_drop_fraction', value: 0.2, float: true },
];

/** Builds a fresh applied-policy object (never shares containers with the request). */
export function applyMarketPolicy(caller: MarketPolicyInput | undefined): MarketPolicy {
  return overlayPolicy<keyof MarketPolicy, MarketPolicy>(DEFAULTS, caller);
}
