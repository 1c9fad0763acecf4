// For random valid arguments, an MCP tools/call and a REST POST /v1/tools/<name> with the
// same bytes give the same body: the REST body as the text rendering on success, the REST
// error body as structuredContent (isError) on refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ARGUMENTS, write } from '../analysis/tools/arbitraries.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { TOOL_ARGUMENTS } from './arguments.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

const json = { 'content-type': 'application/json' };

async function both(tool: string, text: string): Promise<void> {
  const rest = await t.app.inject({ method: 'POST', url: `/v1/tools/${tool}`, headers: json, payload: text });
  const mcp = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: json,
    payload: `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "${tool}", "arguments": ${text}}}`,
  });
  expect(mcp.statusCode).toBe(200);
  const { result } = mcp.json();
  if (rest.statusCode === 200) {
    expect(result.isError).toBeUndefined();
    expect(result.content[0].text).toBe(rest.body);
    expect(result.structuredContent).toEqual(JSON.parse(rest.body));
  } else {
    expect(rest.statusCode).toBe(422);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual(rest.json());
  }
}

describe('MCP and REST give the same bodies', () => {
  it.each(Object.keys(ARGUMENTS))('%s, for random valid arguments', async (tool) => {
    await fc.assert(fc.asyncProperty(ARGUMENTS[tool], (args) => both(tool, write(args))), { numRuns: 40 });
  });

  it.each(Object.keys(TOOL_ARGUMENTS))('%s, for a recorded request', async (tool) => {
    await both(tool, TOOL_ARGUMENTS[tool]);
  });
});
