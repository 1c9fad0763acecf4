// Request body of POST /v1/narrative/triage (narrative_triage).
import { array, clock, integer, literalSet, number, object, string, type StaticOf } from './build.js';

export const MAX_EVENTS = 500;
export const SOURCE_KINDS = ['primary', 'reporting', 'commentary'] as const;

export const EventSourceSchema = object(
  {
    id: string(1, 128),
    kind: literalSet(SOURCE_KINDS),
    url: string(1, 2048),
    family: string(1, 128),
  },
  ['id', 'kind'],
);

export const EventSchema = object(
  {
    id: string(1, 128),
    title: string(1, 2000),
    published_at: clock(),
    available_at: clock(),
    entities: array(string(1, 128), 0, 64),
    source: EventSourceSchema,
    event_key: string(1, 128),
  },
  ['id', 'title', 'published_at', 'entities', 'source'],
);

export const NarrativePolicySchema = object({
  max_age_seconds: number({ exclusiveMinimum: 0, default: 86400 }),
  max_items: integer({ minimum: 1, maximum: 100, default: 20 }),
  similarity_threshold: number({ minimum: 0.5, maximum: 1, default: 0.8 }),
});

export const NarrativeRequestSchema = object(
  {
    events: array(EventSchema, 0, MAX_EVENTS),
    as_of: clock(),
    focus: array(string(1, 128), 0, 64),
    policy: NarrativePolicySchema,
  },
  ['events', 'as_of'],
);

export type NarrativeRequestInput = StaticOf<typeof NarrativeRequestSchema>;
