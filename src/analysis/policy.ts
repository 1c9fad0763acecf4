// Applied policies: the operation's defaults overlaid by the caller's keys. The caller's
// number kinds survive (`3` and `3.0` digest differently, as the reference's do), and
// defaults written as floats are marked so they print as `3.0`.
import { copyMember, markFloat } from '../core/json.js';

export interface PolicyDefault<K extends string> {
  key: K;
  value: number;
  /** The reference writes this default as a float literal. */
  float: boolean;
}

/** A fresh object, keys in the defaults' order; never shares containers with the request. */
export function overlayPolicy<K extends string, P extends Record<K, number>>(
  defaults: ReadonlyArray<PolicyDefault<K>>,
  caller: Partial<Record<K, number>> | undefined,
): P {
  const applied = {} as P;
  for (const { key, value, float } of defaults) {
    if (caller !== undefined && Object.prototype.hasOwnProperty.call(caller, key)) {
      copyMember(applied, key, caller, key);
    } else {
      (applied as Record<K, number>)[key] = value;
      if (float) markFloat(applied, key);
    }
  }
  return applied;
}
