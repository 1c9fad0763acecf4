// The two ways JSON handling fails: unreadable input, and text that cannot become UTF-8.
// Offsets count UTF-8 bytes of the input, whichever reader raised the refusal.
export class JsonSyntaxError extends Error {
  constructor(readonly reason: string, readonly offset: number) {
    super(`${reason} at offset ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

export class LoneSurrogateError extends Error {
  constructor(readonly index: number) {
    super(`text contains an unpaired UTF-16 surrogate at index ${index}; it cannot be encoded as UTF-8`);
    this.name = 'LoneSurrogateError';
  }
}

