// MCP over stdio for desktop agents: one JSON-RPC message per line in, one per line out.
// The SDK's own stdio transport parses with JSON.parse, which forgets whether a number was
// written `10` or `10.0`; this transport parses each line strictly instead, answers parse
// and envelope errors itself (-32700 / -32600 / -32602), and keeps the strict arguments of
// each tools/call for the server. No batches on stdio; a line above the body limit (the
// one REST and MCP over HTTP apply, 16 MiB by default, so the documented maxima fit) is refused.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { parseStrictJson } from '../core/json.js';
// Read as REST reads analysis bodies, so a tool call answers what the REST operation does;
// the other tools refuse a non-finite number as any value of the wrong kind.
import { ANALYSIS_BODY } from '../analysis/validate.js';
import { encodeReply, INVALID_REQUEST, PARSE_ERROR, rpcError, screenMessage, strictArgumentsOf } from './envelope.js';
import type { StrictArguments } from './server.js';

/** The line limit when none is given: the service's default body limit. */
export const MAX_STDIO_LINE_BYTES = 16 * 1024 * 1024;

export class StrictStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The current line is over the limit: drop its bytes until the newline. */
  private discarding = false;
  private readonly argumentsById = new Map<RequestId, unknown>();
  /** Ids of requests handed to the server and not answered yet: another request may not reuse one. */
  private readonly inFlight = new Set<RequestId>();
  /** The lines of pending tools/call requests, kept when `keepCallLines` (see callLine). */
  private readonly callLines = new Map<RequestId, Buffer>();
  private closed = false;
  /** The input has ended: close once the last request read is answered. */
  private ending = false;
  /** Settles when the output drains after a write it could not take at once. */
  private drained: Promise<void> | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxLineBytes = MAX_STDIO_LINE_BYTES,
    private readonly keepCallLines = false,
  ) {}

  /**
   * The line a pending tools/call request arrived in (taken once), so `mcp --base` can hand
   * it to the service exactly as the agent wrote it: a re-encoding would lose `-0`, and could
   * not write a literal beyond the double range or a lone surrogate at all.
   */
  readonly callLine = (id: RequestId): Buffer | undefined => {
    const line = this.callLines.get(id);
    this.callLines.delete(id);
    return line;
  };

  /** For createMcpServer: the strict arguments of a pending tools/call (taken once). */
  readonly strictArguments: StrictArguments = (id) => {
    if (!this.argumentsById.has(id)) return { found: false };
    const value = this.argumentsById.get(id);
    this.argumentsById.delete(id);
    return { found: true, value };
  };

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const answered = 'id' in message && ('result' in message || 'error' in message) ? (message.id as RequestId) : undefined;
    if (answered !== undefined) this.forget(answered);
    const line = encodeReply(message, { singleLine: true }) + '\n';
    // One drain listener however many writes wait for it.
    if (!this.output.write(line)) {
      this.drained ??= new Promise<void>((resolve) => {
        this.output.once('drain', () => {
          this.drained = undefined;
          resolve();
        });
      });
      await this.drained;
    }
    if (answered !== undefined) this.closeIfDone();
  }

  private forget(id: RequestId): void {
    this.inFlight.delete(id);
    this.argumentsById.delete(id);
    this.callLines.delete(id);
  }

  private closeIfDone(): void {
    if (this.ending && this.inFlight.size === 0) void this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.onclose?.();
  }

  private readonly onEnd = () => {
    // Requests already read are still owed their answers (a tool answered by a remote
    // service may take a while): the session closes after the last one is written.
    this.ending = true;
    this.closeIfDone();
  };

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (!this.discarding) {
        this.buffered += piece.length;
        if (this.buffered > this.maxLineBytes) {
          this.discarding = true;
          this.chunks = [];
          this.buffered = 0;
        } else {
          this.chunks.push(piece);
        }
      }
      if (newline === -1) return;
      if (this.discarding) {
        this.discarding = false;
        this.reply(rpcError(null, INVALID_REQUEST, `message too large: a line holds at most ${this.maxLineBytes} bytes`));
      } else {
        const line = Buffer.concat(this.chunks);
        this.chunks = [];
        this.buffered = 0;
        this.handleLine(line);
      }
      start = newline + 1;
    }
  };

  private handleLine(raw: Buffer): void {
    const line = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, raw.length - 1) : raw;
    if (line.toString('utf8').trim() === '') return;
    let parsed: unknown;
    try {
      parsed = parseStrictJson(line, ANALYSIS_BODY);
    } catch (error) {
      this.reply(rpcError(null, PARSE_ERROR, `parse error: ${(error as Error).message}`));
      return;
    }
    if (Array.isArray(parsed)) {
      this.reply(rpcError(null, INVALID_REQUEST, 'batches are not accepted on stdio; send one message per line'));
      return;
    }
    const screened = screenMessage(parsed, new Set());
    if (screened.kind === 'reply') this.reply(screened.reply);
    if (screened.kind !== 'message') return;
    const message = screened.message;
    const id = 'method' in message && 'id' in message ? (message.id as RequestId | undefined) : undefined;
    if (id !== undefined) {
      // A second request under the id of one still running would be answered with the
      // other's arguments (they are found by id): refused instead, as a repeated id in an HTTP batch is.
      if (this.inFlight.has(id)) {
        this.reply(rpcError(id, INVALID_REQUEST, 'this request id belongs to a request still in flight; use a new id'));
        return;
      }
      this.inFlight.add(id);
    }
    const strict = strictArgumentsOf(screened.strict);
    if (id !== undefined && strict.found) this.argumentsById.set(id, strict.value);
    const method = 'method' in message ? message.method : undefined;
    if (id !== undefined && this.keepCallLines && method === 'tools/call') this.callLines.set(id, line);
    this.onmessage?.(message);
    // A cancelled request is not answered (MCP's cancellation rule): its id is free again.
    if (id === undefined && method === 'notifications/cancelled') {
      const cancelled = ('params' in message ? (message.params as { requestId?: RequestId } | undefined) : undefined)?.requestId;
      if (cancelled !== undefined && this.inFlight.has(cancelled)) {
        this.forget(cancelled);
        this.closeIfDone();
      }
    }
  }

  private reply(body: unknown): void {
    if (!this.closed) this.output.write(JSON.stringify(body) + '\n');
  }
}
