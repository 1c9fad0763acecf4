// Invalid query parameters answered as one list, the shape FastAPI gives its own parameter
// validation: `{"detail": [{"type", "loc": ["query", name], "msg", "input"}], "code", "path"}`.
// Group C answers every invalid parameter so (see src/data/errors.ts); group B only the one
// its upstream's framework refuses before any check of its own (changes without `since`).
import { AppError, type ErrorDefinition } from './errors.js';

export interface ValidationItem {
  type: string;
  loc: ['query', string];
  msg: string;
  input: unknown;
}

export interface ValidationProblem extends ValidationItem {
  def: ErrorDefinition;
}

/** One or more invalid query parameters; `body()` is the 422 body the routes send. */
export class QueryValidationError extends AppError {
  readonly problems: readonly ValidationProblem[];

  constructor(problems: readonly ValidationProblem[]) {
    if (problems.length === 0) throw new Error('a validation error needs at least one problem');
    const first = problems[0];
    super(first.def, problems.map((p) => `${p.loc[1]}: ${p.msg}`).join('; '), { path: pointerOf(first.loc[1]) });
    this.name = 'QueryValidationError';
    this.problems = problems;
  }

  get detail(): ValidationItem[] {
    return this.problems.map((p) => ({ type: p.type, loc: ['query', p.loc[1]], msg: p.msg, input: p.input }));
  }

  body(): { detail: ValidationItem[]; code: string; path: string } {
    return { detail: this.detail, code: this.code, path: this.path! };
  }
}

/** JSON pointer of a query parameter in the request (`/query/limit`). */
export function pointerOf(name: string): string {
  return `/query/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

export function problem(def: ErrorDefinition, name: string, type: string, msg: string, input: unknown): ValidationProblem {
  // The echoed input may carry a lone surrogate (a query can); keep the body encodable.
  const echoed = typeof input === 'string' && !input.isWellFormed() ? input.toWellFormed() : input;
  return { def, type, loc: ['query', name], msg, input: echoed };
}
