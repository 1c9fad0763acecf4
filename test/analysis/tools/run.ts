// Running a tool the way every surface does (strict JSON in, Python-encoded body out).
import { expect } from 'vitest';
import { AppError, isAppError } from '../../../src/core/errors.js';
import { keysInOrder, parseStrictJson } from '../../../src/core/json.js';
import { runAnalysisTool } from '../../../src/analysis/tools/dispatch.js';

export type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The encoded body and that body read back (number kinds kept). */
export function run(tool: string, request: string | object): { text: string; body: Body } {
  const text = runAnalysisTool(tool, parseStrictJson(typeof request === 'string' ? request : JSON.stringify(request))).body;
  return { text, body: parseStrictJson(text) as Body };
}

export function refusal(tool: string, request: string | object): AppError {
  try {
    run(tool, request);
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error(`${tool} accepted ${typeof request === 'string' ? request : JSON.stringify(request)}`);
}

export function keys(value: object): readonly string[] {
  return keysInOrder(value);
}

/** A sentence-valued member: present, non-empty. */
export function expectProse(value: unknown, count?: number): void {
  if (count === undefined) {
    expect(typeof value).toBe('string');
    expect((value as string).length).toBeGreaterThan(10);
    return;
  }
  expect(Array.isArray(value)).toBe(true);
  expect(value as unknown[]).toHaveLength(count);
  for (const item of value as unknown[]) expectProse(item);
}
