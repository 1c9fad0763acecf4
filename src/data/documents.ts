// Parsed source documents by content hash, shared read-only by every projection in this
// process (projections copy what they emit and never write into a document). Bounded by
// the documents' byte sizes; a miss reads the blob back and checks its hash.
import { parseStrictJson } from '../core/json.js';
import { sha256Hex } from '../core/hash.js';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import { WeightedLru } from './lru.js';
import { loadDocumentBytes } from './store.js';

/**
 * Source bytes whose parsed documents one process keeps. A parsed document takes 4–5 times
 * its bytes (a 2.9 MB atlas: 15 MB), and a document is read again only to form a snapshot
 * whose rows are not kept, so room for one document at the 4 MiB source cap is enough: the
 * newest retrieval's, which the snapshot formed next reads. 24 MiB let a source that changes
 * at every refresh hold over 100 MB of documents; 8 MiB held two atlases (30 MB) where the
 * older one was rarely read again, and a process paging atlas histories peaked ~10 MiB higher.
 */
export const DOCUMENT_CACHE_BYTES = 4 * 1024 * 1024;

export class DocumentCache {
  private readonly lru: WeightedLru<string, { document: unknown; size: number }>;

  constructor(budgetBytes = DOCUMENT_CACHE_BYTES) {
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
