// At most N tasks at a time (the upstream's four network workers); the rest wait in order.
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` never dips below the load.
      if (next) next();
      else this.active--;
    }
  }
}

/** Network fetches of source documents in this process share four slots. */
export const SOURCE_FETCH_LIMITER = new Limiter(4);
