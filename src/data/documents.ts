// Parsed source documents by content hash, shared read-only by every projection in this
// process (projections copy what they emit and never write into a document). Bounded by
// the documents' byte sizes; a miss reads the blob back and checks its hash.
import { parseStrictJson } from '../core/json.js';
import { sha256Hex } from '../core/hash.js';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { WeightedLru } from './lru.js';
import { loadDocumentBytes } from './store.js';

export class DocumentCache {
  private readonly lru: WeightedLru<string, { document: unknown; size: number }>;

  constructor(budgetBytes = 24 * 1024 * 1024) {
    this.lru = new WeightedLru(budgetBytes, (v) => v.size);
  }

  put(sha256: string, document: unknown, size: number): void {
    this.lru.set(sha256, { document, size });
  }

  /** The parsed document, or undefined when the blob is missing or no longer matches its hash. */
  async get(db: Kysely<Database>, sha256: string): Promise<unknown> {
    const hit = this.lru.get(sha256);
    if (hit) return hit.document;
    const bytes = await loadDocumentBytes(db, sha256);
    if (!bytes || sha256Hex(bytes) !== sha256) return undefined;
    const document = parseStrictJson(bytes, { hugeIntegers: true });
    this.put(sha256, document, bytes.byteLength);
    return document;
  }
}
