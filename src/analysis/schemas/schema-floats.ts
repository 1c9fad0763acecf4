// A group A schema whose integral keyword value is a float (`"default": 3.0`, the market
// policy) keeps that kind in a side table of its own object (build.ts). The MCP SDK and the
// OpenAPI generator copy schemas, and JSON.stringify prints a copy's `3.0` as `3`: a client
// filling in the advertised default then sends another value than the default (and gets
// another policy_sha256). Documents that carry these schemas are written here with each copy
// swapped for its original, so tools/list and /openapi.json print what /v1/capabilities prints.
import { randomUUID } from 'node:crypto';
import { encodeCompactJson } from '../../core/json.js';
import { floatMarkedSchemas } from './build.js';

const TOKEN = `float-schema-${randomUUID()}-`;
const TOKEN_JSON = new RegExp(`"${TOKEN}(\\d+)"`, 'g');

/** JSON.stringify(value), except that a copy of a float-marked schema is written as the original is. */
export function stringifyKeepingSchemaFloats(value: unknown): string {
  const originals = floatMarkedSchemas();
  // A copy is recognised by its JSON text: the same keywords, in the same order, with the same values.
  const plain = originals.map((schema) => JSON.stringify(schema));
  let swapped = false;
  const text = JSON.stringify(value, (_key, member: unknown) => {
    if (member !== null && typeof member === 'object' && !Array.isArray(member) && Object.hasOwn(member, 'default')) {
      const at = plain.indexOf(JSON.stringify(member));
      if (at !== -1) {
        swapped = true;
        return `${TOKEN}${at}`;
      }
    }
    return member;
  });
  return swapped ? text.replace(TOKEN_JSON, (_match, at: string) => encodeCompactJson(originals[Number(at)])) : text;
}
