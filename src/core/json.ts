// Strict JSON reader and the canonical encoders.
//
// Why not JSON.parse: it silently keeps the last of duplicate keys, and it forgets whether
// a number was written `3` or `3.0`. Both matter here: duplicates are ambiguous input, and
// the analysis digests (Python `json.dumps` of the request) and the archive's documents
// print integers and floats differently. The lexical kind of integral floats is kept in a
// side table keyed by the containing object, so domain code still sees plain numbers.

export { JsonSyntaxError, LoneSurrogateError } from './json/errors.js';
export { cloneJson, copyMember, hasNumberKinds, isArrayIndexKey, isFloatToken, keysInOrder, markFloat, rawIntegerOf, setKeyOrder } from './json/kinds.js';
export { DigestJsonWriter } from './json/digest-writer.js';
export { MAX_FAST_NUMBER_BYTES, putFastNumber, putPlainQuoted } from './json/put.js';
export { parseStrictJson, type ParseOptions } from './json/reader.js';
export { pyFloatRepr } from './json/format.js';
export {
  encodeCanonicalDocument,
  encodeCanonicalDocumentBytes,
  encodeCompactJson,
  encodeDigestJson,
  encodePythonBody,
  encodePythonBodyBytes,
  sha256OfDigestJson,
} from './json/encoder.js';
