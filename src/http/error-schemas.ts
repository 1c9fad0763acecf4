// Error body schemas, one per body shape, closed, with `code` limited to the codes the
// operation documents for that status. The bodies themselves are built by errorBody
// (./errors.ts); the contract test holds both to each other.
import { Type, type TSchema } from 'typebox';

/** `analysis`: upstream group A (`error`); `evidence`: groups B and C (`detail`); `any`: both. */
export type ErrorShape = 'analysis' | 'evidence' | 'any';

const Message = Type.String({ description: 'What is wrong, in one sentence for people.' });
const Path = Type.Optional(Type.String({ description: 'JSON pointer to the request field at fault.' }));
const SampleMark = Type.Optional(Type.Literal(true, { description: 'Present only in sample mode.' }));

export function errorBodySchema(shape: ErrorShape, codes: readonly string[]): TSchema {
  const code = Type.Enum([...codes], { description: 'Stable machine-readable code from the error registry (docs/errors.md).' });
  const closed = { additionalProperties: false } as const;
  if (shape === 'analysis') return Type.Object({ error: Message, code, path: Path }, closed);
  if (shape === 'evidence') return Type.Object({ detail: Message, code, path: Path, sample: SampleMark }, closed);
  return Type.Object({ error: Message, detail: Message, code, path: Path, sample: SampleMark }, closed);
}
