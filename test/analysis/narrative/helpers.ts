import { AppError } from '../../../src/core/errors.js';
import type { NarrativeEvent, NarrativeRequest } from '../../../src/analysis/narrative/types.js';
import { triageNarrative } from '../../../src/analysis/narrative/triage.js';

export const AS_OF = '2026-10-08T10:00:00Z';

/** An eligible event about bank-a, published an hour before AS_OF, from a reporting source. */
export function ev(id: string, title: string, over: Partial<NarrativeEvent> = {}): NarrativeEvent {
  return {
    id,
    title,
    published_at: '2026-10-08T09:00:00Z',
    entities: ['bank-a'],
    source: { id: `src-${id}`, kind: 'reporting' },
    ...over,
  };
}

export function triage(events: NarrativeEvent[], extra: Partial<NarrativeRequest> = {}) {
  return triageNarrative({ events, as_of: AS_OF, ...extra });
}

export function caught(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
