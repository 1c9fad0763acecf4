// Requests pipelined on one connection are run one at a time: each starts once the answer
// before it has been handed to the socket. Node parses every request a read holds and emits
// them all at once, and each answer then waits in memory until the client has read the ones
// before it: one client that wrote a thousand `GET /openapi.json` in one packet and never
// read held 1 GB, and two hundred such clients ran the process out of memory. Answers go
// out in order anyway (HTTP/1.1), so a client that reads loses nothing; one that does not
// read holds one answer and is cut by the idle limit.
//
// Past MAX_PIPELINED unanswered requests on a connection, the later ones are neither run
// nor answered, and the connection ends after the answers owed to the earlier ones: RFC 9112
// §9.3.2 lets a server close a connection with requests outstanding, and a client retries
// them. That bounds what one connection can hold waiting to MAX_PIPELINED parsed requests.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Unanswered requests one connection may have in the service at once (running and waiting). */
export const MAX_PIPELINED = 32;

interface Waiting {
  res: ServerResponse;
  run(closeAfter: boolean): void;
}

interface Line {
  socket: Socket;
  running: ServerResponse | null;
  waiting: Waiting[];
  /** Set once a request came past the limit: nothing more is admitted on this connection. */
  full: boolean;
}

export type Admission = 'now' | 'queued' | 'refused';

/**
 * How long a connection that went past the limit has to take the answers it is owed before
 * it is cut. Every request a read held has been parsed by then, and Node keeps each one
 * queued until the connection goes: a client that pipelined thousands and never read held
 * hundreds of MB across a few hundred connections until its idle limit.
 */
export const OVERFLOW_GRACE_MS = 2000;

export class PipelineGate {
  readonly #lines = new WeakMap<Socket, Line>();
  /** Requests being answered now, over every connection. */
  #running = 0;
  #quiet: Array<() => void> = [];

  /** Whether the connection went past the limit: its later requests are dropped unseen. */
  isFull(socket: Socket): boolean {
    return this.#lines.get(socket)?.full === true;
  }

  /** Calls `fn` once no request is being answered (at once if none is). */
  whenQuiet(fn: () => void): void {
    if (this.#running === 0) fn();
    else this.#quiet.push(fn);
  }

  /**
   * Runs `run` at once when the connection has no request still being answered, else once the
   * ones before it are. `closeAfter` is true for the last request admitted on a connection
   * that went past the limit: its answer must close the connection. Returns 'refused' (and
   * never runs `run`) for a request past the limit.
   */
  admit(socket: Socket, res: ServerResponse, run: (closeAfter: boolean) => void): Admission {
    let line = this.#lines.get(socket);
    if (line === undefined) {
      line = { socket, running: null, waiting: [], full: false };
      this.#lines.set(socket, line);
      const known = line;
      // Requests still waiting when the connection goes will never be answered: drop them.
      socket.once('close', () => {
        known.waiting.length = 0;
        known.full = true;
      });
    }
    if (line.full) return 'refused';
    if (line.running === null) {
      this.#start(line, res);
      run(false);
      return 'now';
    }
    if (line.waiting.length + 1 >= MAX_PIPELINED) {
      line.full = true;
      const cut = setTimeout(() => socket.destroy(), OVERFLOW_GRACE_MS);
      cut.unref();
      socket.once('close', () => clearTimeout(cut));
      return 'refused';
    }
    line.waiting.push({ res, run });
    return 'queued';
  }

  /** Whether requests wait on the connection behind the one being answered. */
  hasWaiting(socket: Socket): boolean {
    return (this.#lines.get(socket)?.waiting.length ?? 0) > 0;
  }

  #start(line: Line, res: ServerResponse): void {
    line.running = res;
    this.#running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      res.off('finish', release);
      res.off('close', release);
      line.running = null;
      this.#running--;
      this.#next(line);
      if (this.#running === 0 && this.#quiet.length > 0) for (const fn of this.#quiet.splice(0)) fn();
    };
    // 'finish' once the last byte is handed to the socket (for a client that does not read,
    // never: the next request then waits); 'close' if the connection went first.
    res.once('finish', release);
    res.once('close', release);
  }

  #next(line: Line): void {
    // The running answer ends with its connection too: what waited behind it is never run.
    if (line.socket.destroyed) {
      line.waiting.length = 0;
      return;
    }
    for (let entry = line.waiting.shift(); entry !== undefined; entry = line.waiting.shift()) {
      if (entry.res.destroyed) continue;
      this.#start(line, entry.res);
      entry.run(line.full && line.waiting.length === 0);
      return;
    }
  }
}
