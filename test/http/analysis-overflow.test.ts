// Number literals beyond the double range in an analysis request: the upstream's Python
// reader makes `1e400` an infinite float and a 400-digit literal a huge int, and its
// validator refuses either as no finite number (422 at the field), never as malformed JSON.
// Every analysis tool, at seeded numeric positions of a valid request, over REST and MCP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_TOOL_NAMES } from '../../src/analysis/tools/catalogue.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { prng } from '../helpers/analysis-requests.js';
import { TOOL_ARGUMENTS } from '../mcp/arguments.js';

const LITERALS = ['1e400', '-1e400', '1E+999', '9'.repeat(400), `-${'9'.repeat(309)}`];
const MARK = '"\u0000overflow\u0000"';
const POSITIONS_PER_TOOL = 6;

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ maxEventLoopDelay: 0 });
});
afterAll(async () => t.close());

/** JSON pointers of the number leaves of `value`. */
function numberLeaves(value: unknown, pointer = ''): string[] {
  if (typeof value === 'number') return [pointer];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => numberLeaves(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
}

/** `request` as JSON text with the leaf at `pointer` written as `literal`. */
function withLiteral(request: unknown, pointer: string, literal: string): string {
  const copy = structuredClone(request) as Record<string, unknown>;
  const keys = pointer.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  let at: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[keys[keys.length - 1]] = MARK;
  return JSON.stringify(copy).replace(JSON.stringify(MARK), literal);
}

describe('analysis requests with a number literal beyond the double range', () => {
  it('are refused 422 invalid_input at that number by every tool, over REST and MCP alike', async () => {
    const random = prng(400);
    let checked = 0;
    for (const tool of ANALYSIS_TOOL_NAMES) {
      const request = JSON.parse(TOOL_ARGUMENTS[tool]) as unknown;
      const leaves = numberLeaves(request);
      expect(leaves.length, tool).toBeGreaterThan(0);
      for (let n = 0; n < Math.min(POSITIONS_PER_TOOL, leaves.length); n++) {
        const pointer = leaves[Math.floor(random() * leaves.length)];
        const literal = LITERALS[Math.floor(random() * LITERALS.length)];
        const body = withLiteral(request, pointer, literal);
        const rest = await t.app.inject({ method: 'POST', url: `/v1/tools/${tool}`, headers: { 'content-type': 'application/json' }, payload: body });
        const what = `${tool} ${pointer} = ${literal.slice(0, 12)}`;
        expect(rest.statusCode, `${what}: ${rest.body}`).toBe(422);
        expect(rest.json(), what).toMatchObject({ code: 'invalid_input', path: pointer });
        const mcp = await t.app.inject({
          method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          payload: `{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "${tool}", "arguments": ${body}}}`,
        });
        const result = mcp.json<{ result: { isError: boolean; content: { text: string }[] } }>().result;
        expect(result.isError, what).toBe(true);
        expect(result.content[0].text, what).toBe(rest.body);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(ANALYSIS_TOOL_NAMES.length);
  });

  const callTool = async (tool: string, args: string) => {
    const mcp = await t.app.inject({
      method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: `{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "${tool}", "arguments": ${args}}}`,
    });
    return mcp.json<{ result: { isError: boolean; content: Array<{ text: string }>; structuredContent: { code: string } } }>().result;
  };

  it('are refused as a wrong value, never an internal error, by the MCP tools of the other groups', async () => {
    // Group C reads the float as Python prints it (`inf`) and refuses that text as REST does.
    for (const [tool, args, code] of [['data_query', '{"dataset": "money_markets", "limit": 1e400}', 'invalid_limit'], ['agent_review', '{"limit": 1e400}', 'invalid_limit'], ['funding_history', '{"limit": -1e400}', 'invalid_request']]) {
      const result = await callTool(tool, args);
      expect(result.isError, `${tool} ${args}`).toBe(true);
      expect(result.structuredContent.code, `${tool} ${args}`).toBe(code);
    }
  });

  it('are read by those tools as the digits a query string would carry when written as integers', async () => {
    const digits = '9'.repeat(400);
    for (const [tool, args, url] of [
      ['data_query', `{"dataset": "money_markets", "offset": -${digits}}`, `/api/v1/query?dataset=money_markets&offset=-${digits}`],
      ['agent_review', `{"limit": ${digits}}`, `/api/v1/agent-review?limit=${digits}`],
      ['funding_history', `{"limit": ${digits}}`, `/v1/funding/history?limit=${digits}`],
    ]) {
      const result = await callTool(tool, args);
      expect(result.isError, `${tool} ${args}`).toBe(true);
      expect(result.content[0].text, tool).toBe((await t.app.inject({ method: 'GET', url })).body);
    }
  });

  it('still refuse an integer literal longer than Python reads (4300 digits) as malformed JSON', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/research/dyson', headers: { 'content-type': 'application/json' }, payload: `{"seed": ${'9'.repeat(4301)}}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'malformed_json' });
  });
});
