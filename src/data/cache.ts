// The source cache, kept in the store so every instance sharing it sees one state.
//
// Freshness (upstream §1.2): a successful retrieval is reused for `sourceCacheTtl`
// seconds (60), a failed one for `sourceErrorTtl` (5); after that the next caller fetches
// again, and whatever that attempt gives — success or failure — is what everyone gets
// next: an expired success is never served once a refresh has failed.
//
// One fetch per URL at a time:
// - in this process, callers that find the entry stale join the one refresh in flight;
// - across instances, the refresh runs under a lease named after the URL. An instance
//   that cannot take the lease polls the store until a retrieval newer than the stale one
//   it saw appears (whoever made it), or the lease frees (its holder died) and it
//   fetches itself. The lease holder re-reads the store first, so a refresh that
//   finished meanwhile elsewhere is used, not repeated.
// The network fetches of this process share four slots (SOURCE_FETCH_LIMITER).
// Clocks: freshness and retrieval times come from the injected clock; leases and polling
// are real-time mechanisms (they guard real network calls) and use the wall clock.

import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../core/config.js';
import { sha256Hex } from '../core/hash.js';
import type { Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';
import type { DocumentCache } from './documents.js';
import type { SourceFetch } from './fetch-source.js';
import type { Limiter } from './limiter.js';
import { deadlineFor } from './fetch-source.js';
import type { SourceEntry, SourceRegistry } from './registry.js';
import { attemptRetrieval } from './retrieve.js';
import type { Retrieval } from './retrieval.js';
import { insertRetrieval, newestRetrieval, newRetrievalId } from './store.js';

export interface SourceCacheDeps {
  storage: Storage;
  registry: SourceRegistry;
  fetch: SourceFetch;
  clock: () => Instant;
  config: Pick<Config, 'mode' | 'sourceCacheTtl' | 'sourceErrorTtl'>;
  limiter: Limiter;
  documents: DocumentCache;
  /** Wall clock for leases (ms); tests may replace it. */
  wallMs?: () => number;
  /** Delay between looks at the store while another instance fetches. */
  pollMs?: number;
}

export interface CurrentRetrieval {
  retrieval: Retrieval;
  /** True when the stored retrieval was fresh; false when this call waited for a fetch. */
  hit: boolean;
}

export class SourceCache {
  private readonly inflight = new Map<string, Promise<Retrieval>>();
  // The newest retrieval this instance knows per URL. While it is fresh nobody (on any
  // instance with the same TTLs) can have replaced it, so the store need not be asked.
  private readonly known = new Map<string, Retrieval>();
  /** Network attempts made by this instance (tests count them). */
  fetches = 0;

  constructor(private readonly deps: SourceCacheDeps) {}

  ttlSeconds(retrieval: Retrieval): number {
    return retrieval.ok ? this.deps.config.sourceCacheTtl : this.deps.config.sourceErrorTtl;
  }

  isFresh(retrieval: Retrieval, nowUs: number): boolean {
    return nowUs - retrieval.retrievedAtUs < this.ttlSeconds(retrieval) * 1_000_000;
  }

  private remember(retrieval: Retrieval): void {
    const current = this.known.get(retrieval.sourceUrl);
    if (!current || current.seq < retrieval.seq) this.known.set(retrieval.sourceUrl, retrieval);
  }

  async current(entry: SourceEntry): Promise<CurrentRetrieval> {
    const nowUs = Number(this.deps.clock());
    const known = this.known.get(entry.url);
    if (known && this.isFresh(known, nowUs)) return { retrieval: known, hit: true };
    const stored = await newestRetrieval(this.deps.storage.db, this.deps.config.mode, entry.url);
    if (stored) {
      this.remember(stored);
      if (this.isFresh(stored, nowUs)) return { retrieval: stored, hit: true };
    }
    let flight = this.inflight.get(entry.url);
    if (!flight) {
      flight = this.refresh(entry, stored?.seq ?? 0).finally(() => this.inflight.delete(entry.url));
      this.inflight.set(entry.url, flight);
    }
    return { retrieval: await flight, hit: false };
  }

  private async newerThan(entry: SourceEntry, seq: number): Promise<Retrieval | undefined> {
    const newest = await newestRetrieval(this.deps.storage.db, this.deps.config.mode, entry.url);
    if (newest && newest.seq > seq) {
      this.remember(newest);
      return newest;
    }
    return undefined;
  }

  private async refresh(entry: SourceEntry, staleSeq: number): Promise<Retrieval> {
    const { storage } = this.deps;
    const wallMs = this.deps.wallMs ?? Date.now;
    const lease = `data-fetch:${this.deps.config.mode}:${sha256Hex(entry.url).slice(0, 32)}`;
    const holder = randomBytes(16).toString('hex');
    // Longer than the longest fetch, so a live holder never loses it mid-fetch.
    const leaseMs = deadlineFor(entry.timeoutMs) + 15_000;
    for (;;) {
      if (await storage.tryLease(lease, holder, leaseMs, wallMs())) {
        try {
          return (await this.newerThan(entry, staleSeq)) ?? (await this.fetchAndStore(entry));
        } finally {
          await storage.releaseLease(lease, holder).catch(() => undefined);
        }
      }
      await sleep(this.deps.pollMs ?? 50);
      const newer = await this.newerThan(entry, staleSeq);
      if (newer) return newer;
    }
  }

  private async fetchAndStore(entry: SourceEntry): Promise<Retrieval> {
    const { clock, registry, fetch, limiter, documents, storage } = this.deps;
    const outcome = await limiter.run(async () => {
      this.fetches++;
      const startedAt = clock();
      const result = await attemptRetrieval(entry, registry, fetch);
      return { startedAt, result, retrievedAt: clock() };
    });
    const { result } = outcome;
    const base = {
      retrievalId: newRetrievalId(),
      mode: this.deps.config.mode,
      sourceKey: entry.key,
      sourceUrl: entry.url,
      startedAtUs: Number(outcome.startedAt),
      retrievedAtUs: Number(outcome.retrievedAt),
    };
    let stored: Retrieval;
    if (result.ok) {
      const sha = sha256Hex(result.body);
      documents.put(sha, result.document, result.body.byteLength);
      stored = await insertRetrieval(
        storage,
        { ...base, ok: true, resolvedUrl: result.resolvedUrl, bytes: result.body.byteLength, contentSha256: sha, error: null },
        result.body,
      );
    } else {
      stored = await insertRetrieval(storage, { ...base, ok: false, resolvedUrl: null, bytes: null, contentSha256: null, error: result.error }, null);
    }
    this.remember(stored);
    return stored;
  }
}
