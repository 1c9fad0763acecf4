// `mcp --base` reads the running service's replies strictly: a data answer that holds an
// integer no double holds (written as its digits, as Python writes an int) still comes
// through, with the digits kept, instead of being taken for a broken reply.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePythonBody } from '../../src/core/json.js';
import { remoteTools } from '../../src/mcp/remote.js';

const HUGE = '1' + '0'.repeat(400);
const TEXT = `{"sources": [{"source_reported": {"state": [{"name": "count", "value": ${HUGE}}, {"name": "level", "value": 30.0}]}}]}`;

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"result": {"content": [{"type": "text", "text": ${JSON.stringify(TEXT)}}], "structuredContent": ${TEXT}}, "jsonrpc": "2.0", "id": 1}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

describe('mcp --base replies', () => {
  it('pass a structuredContent with a huge integer and a float through with both kept', async () => {
    const result = await remoteTools(base).call('data_sources', {}, 1);
    expect((result.content[0] as { text: string }).text).toBe(TEXT);
    expect(encodePythonBody(result.structuredContent)).toBe(TEXT);
  });
});
