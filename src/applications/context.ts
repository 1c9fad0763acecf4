import type { Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';

/** What every application operation runs against: the store and "now". */
export interface ApplicationContext {
  storage: Storage;
  clock: () => Instant;
}
