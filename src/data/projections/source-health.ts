// source_health (upstream §5.7): one metadata row per source: what the source says about
// its own state and clocks. Retrieval details (bytes, cache age, errors) are in `sources`.
import { contextJson } from '../encode.js';
import { makeRow } from '../row.js';
import type { ProjectionInput } from './types.js';
import type { Topic } from '../registry.js';

export function projectSourceHealth({ base, reported }: ProjectionInput, topic: Topic) {
  return [makeRow(base, {
    entity_id: topic,
    metric: 'source_metadata',
    availability: 'metadata_only',
    context: contextJson(reported),
  })];
}
