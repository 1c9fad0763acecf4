// The rows of one snapshot, kept by column. A history repeats its market, unit, rights,
// source and clocks on every row, so each text column keeps its distinct values once and a
// small code per row; values sit in a Float64Array. A 2.9 MB atlas history (120,000 rows)
// took ~350 bytes a row as row objects (42 MB) and takes ~90 here (10 MB), and a snapshot is
// held for as long as it is paged. Rows are made again, as fresh objects in
// column order, only for the page being answered, so no caller can change what the next
// one sees.

import { casefold } from '../analysis/narrative/text.js';
import { markFloat } from '../core/json.js';
import { DIAGNOSTIC_AVAILABILITY } from './row.js';
import { ROW_COLUMNS, type EvidenceRow, type RowColumn } from './row-schema.js';

type TextColumn = Exclude<RowColumn, 'value' | 'source_field'>;
type Codes = Uint8Array | Uint16Array | Uint32Array;

/** The text columns in column order; textsOf reads them by name (faster than by a computed key). */
const TEXT_COLUMNS: readonly TextColumn[] = [
  'dataset', 'product', 'entity_id', 'entity_name', 'metric', 'unit', 'as_of', 'source_status', 'availability', 'source_url',
  'observation_url', 'retrieved_at', 'content_sha256', 'published_at', 'knowledge_time', 'rights_status', 'context',
  'transport_status', 'evidence_status', 'financial_authority', 'carrier_verification',
];
const textsOf = (r: EvidenceRow): (string | null)[] => [
  r.dataset, r.product, r.entity_id, r.entity_name, r.metric, r.unit, r.as_of, r.source_status, r.availability, r.source_url,
  r.observation_url, r.retrieved_at, r.content_sha256, r.published_at, r.knowledge_time, r.rights_status, r.context,
  r.transport_status, r.evidence_status, r.financial_authority, r.carrier_verification,
];
if (TEXT_COLUMNS.join() !== ROW_COLUMNS.filter((c) => c !== 'value' && c !== 'source_field').join()) {
  throw new Error('row-table.ts: TEXT_COLUMNS must list the text columns of the row schema in order');
}
const COLUMN_AT = new Map(TEXT_COLUMNS.map((c, i) => [c, i]));
const at = (column: TextColumn): number => COLUMN_AT.get(column)!;
const ENTITY_ID = at('entity_id');
const ENTITY_NAME = at('entity_name');
const AVAILABILITY = at('availability');

/** The distinct values of one column, in first-seen order, and the code of each. */
class Dictionary {
  readonly values: (string | null)[] = [];
  private readonly codes = new Map<string | null, number>();
  // Rows of one market or source come in runs: the previous value is the usual answer.
  private last: string | null | undefined = undefined;
  private lastCode = -1;

  code(value: string | null): number {
    if (value === this.last) return this.lastCode;
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    this.last = value;
    this.lastCode = code;
    return code;
  }
}

type Grown = Uint8Array | Uint32Array | Float64Array;

/** A typed array that doubles when full. */
class Growing<A extends Grown> {
  length = 0;

  constructor(private data: A) {}

  push(value: number): void {
    if (this.length === this.data.length) {
      const wider = new (this.data.constructor as new (length: number) => A)(this.data.length * 2);
      wider.set(this.data);
      this.data = wider;
    }
    this.data[this.length++] = value;
  }

  /** The values pushed, as a view. */
  used(): A {
    return this.data.subarray(0, this.length) as A;
  }
}

/** Codes in the smallest kind that numbers `distinct` values. */
function narrowed(codes: Uint32Array, distinct: number): Codes {
  if (distinct <= 0x100) return Uint8Array.from(codes);
  if (distinct <= 0x10000) return Uint16Array.from(codes);
  return codes.slice();
}

export class RowTableBuilder {
  private readonly dictionaries = TEXT_COLUMNS.map(() => new Dictionary());
  private readonly codes = TEXT_COLUMNS.map(() => new Growing(new Uint32Array(256)));
  private readonly values = new Growing(new Float64Array(256));
  private readonly present = new Growing(new Uint8Array(256));
  private readonly fields: string[] = [];

  get length(): number {
    return this.fields.length;
  }

  push(row: EvidenceRow): void {
    const texts = textsOf(row);
    for (let c = 0; c < texts.length; c++) this.codes[c].push(this.dictionaries[c].code(texts[c]));
    this.values.push(row.value ?? 0);
    this.present.push(row.value === null ? 0 : 1);
    this.fields.push(row.source_field);
  }

  finish(): RowTable {
    return new RowTable(
      this.dictionaries.map((d) => d.values),
      this.codes.map((c, i) => narrowed(c.used(), this.dictionaries[i].values.length)),
      this.values.used().slice(),
      this.present.used().slice(),
      this.fields,
    );
  }
}

export class RowTable {
  /** Case-folded entity ids and names, per distinct value ('' for null). */
  private readonly foldedIds: readonly string[];
  private readonly foldedNames: readonly string[];
  /** Rows whose availability is a diagnostic one (row.ts), in order. */
  readonly diagnosticRows: readonly number[];

  constructor(
    private readonly dictionaries: readonly (readonly (string | null)[])[],
    private readonly codes: readonly Codes[],
    private readonly values: Float64Array,
    private readonly present: Uint8Array,
    private readonly fields: readonly string[],
  ) {
    const fold = (text: string | null) => (text === null ? '' : casefold(text));
    this.foldedIds = dictionaries[ENTITY_ID].map(fold);
    this.foldedNames = dictionaries[ENTITY_NAME].map(fold);
    const diagnostic = dictionaries[AVAILABILITY].map((a) => a !== null && DIAGNOSTIC_AVAILABILITY.has(a));
    const rows: number[] = [];
    const availability = codes[AVAILABILITY];
    for (let i = 0; i < fields.length; i++) if (diagnostic[availability[i]]) rows.push(i);
    this.diagnosticRows = rows;
  }

  static of(rows: Iterable<EvidenceRow>): RowTable {
    const builder = new RowTableBuilder();
    for (const row of rows) builder.push(row);
    return builder.finish();
  }

  get length(): number {
    return this.fields.length;
  }

  private text(column: number, i: number): string | null {
    return this.dictionaries[column][this.codes[column][i]];
  }

  /** A text column's code for each row; valuesOf(column)[code] is the row's value. */
  codesOf(column: TextColumn): Codes {
    return this.codes[at(column)];
  }

  /** A text column's distinct values, by code. */
  valuesOf(column: TextColumn): readonly (string | null)[] {
    return this.dictionaries[at(column)];
  }

  /** The distinct entity ids or names case-folded, by code ('' for null), for the entity filter. */
  foldedValuesOf(column: 'entity_id' | 'entity_name'): readonly string[] {
    return column === 'entity_id' ? this.foldedIds : this.foldedNames;
  }

  /** A fresh row object, columns in order, a number value float-kind (as makeRow makes it). */
  row(i: number): EvidenceRow {
    const out: Record<string, unknown> = {};
    let c = 0;
    for (const column of ROW_COLUMNS) {
      if (column === 'value') out.value = this.present[i] === 1 ? this.values[i] : null;
      else if (column === 'source_field') out.source_field = this.fields[i];
      else out[column] = this.text(c++, i);
    }
    if (out.value !== null) markFloat(out, 'value');
    return out as EvidenceRow;
  }
}
