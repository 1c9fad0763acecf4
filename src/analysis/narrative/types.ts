// Request and response shapes of `narrative_triage`, derived from the published schemas
// (request: src/analysis/schemas/narrative.ts, result: src/analysis/schemas/narrative-result.ts).
// The request reaching the domain code has already passed the HTTP layer's validation.
import type { Static } from 'typebox';
import type { NarrativeRequestInput } from '../schemas/narrative.js';
import type {
  ClusterSummarySchema,
  ConflictCandidateSchema,
  EventEntrySchema,
  NarrativePolicyResult,
} from '../schemas/narrative-result.js';

export type NarrativeRequest = NarrativeRequestInput;
export type NarrativeEvent = NarrativeRequest['events'][number];
export type NarrativeSource = NarrativeEvent['source'];
export type SourceKind = NarrativeSource['kind'];
export type NarrativePolicyInput = NonNullable<NarrativeRequest['policy']>;

export type NarrativePolicy = Static<typeof NarrativePolicyResult>;
export type ClusterSummary = Static<typeof ClusterSummarySchema>;
export type EventEntry = Static<typeof EventEntrySchema>;
export type EventStatus = EventEntry['status'];
export type Relevance = ClusterSummary['relevance'];
export type ConflictCandidate = Static<typeof ConflictCandidateSchema>;
export type { NarrativeTriageResult } from '../schemas/narrative-result.js';
