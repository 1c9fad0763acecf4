// bank_risk (upstream §5.4): per board row, the monitoring score and the 12-month model
// probability (a fraction: 0.0042, unit `ratio`), dated by the row's quarter, never by the
// board. Both are outputs LiquiLens derived itself, so `derived_only` does not withhold
// them. Then, when the board carries current filings, one row per filed metric: raw
// figures (raw rule), dated by the period end, known from the filing's availability time.
import { contextJson, copiedObject, type From } from '../encode.js';
import { anyBlocked, isBlocked, normaliseLabel } from '../rights.js';
import { makeRow, type EvidenceRow, type RowBase } from '../row.js';
import { isObject, member, numberAt, objectAt, pointer, textAt, type JsonObject } from '../text.js';
import type { ListProjector } from './types.js';

export const FILINGS_SCHEMA = 'liquilens.current-bank-filings.v1';
const DEFAULT_SCOPE = 'corpus_monitoring_not_credit_rating';

// A member read from the board row, else from its hazard block, else null.
function rowOrHazard(row: JsonObject, hazard: JsonObject, key: string): From {
  if (Object.hasOwn(row, key)) return [row, key];
  if (Object.hasOwn(hazard, key)) return [hazard, key];
  return null;
}

function boardRows(base: RowBase, document: JsonObject, rows: unknown[]): EvidenceRow[] {
  const out: EvidenceRow[] = [];
  rows.forEach((row, i) => {
    if (!isObject(row)) return;
    const hazard = objectAt(row, 'hazard');
    const blocked = anyBlocked([document, row, hazard], 'derived');
    const scope = textAt(hazard, 'score_scope');
    // No `grade`: a letter grade would read as a credit rating, which this is not.
    // Copied members keep their number kinds on this object (never spread it into another);
    // the keys are sorted when written.
    const members = copiedObject({
      quarter: rowOrHazard(row, hazard, 'quarter'),
      age_months: rowOrHazard(row, hazard, 'age_months'),
      historical_evidence: Object.hasOwn(hazard, 'historical_evidence') ? [hazard, 'historical_evidence'] : [document, 'historical_evidence'],
      validated_backtest: rowOrHazard(row, hazard, 'validated_backtest'),
      real_money_eligible: rowOrHazard(row, hazard, 'real_money_eligible'),
    });
    members.scope = scope ? scope : DEFAULT_SCOPE;
    const context = contextJson(members);
    const common = {
      entity_id: textAt(row, 'slug'),
      entity_name: textAt(row, 'name'),
      as_of: textAt(row, 'as_of'),
      source_status: textAt(row, 'tier'),
      context,
    };
    const score = blocked ? null : numberAt(row, 'score');
    const pd = blocked ? null : numberAt(hazard, 'pd_12m');
    out.push(
      makeRow(base, { ...common, metric: 'monitoring_score', value: score, unit: 'score_points', availability: score === null ? 'unavailable' : 'published', source_field: pointer('rows', i, 'score') }),
      makeRow(base, { ...common, metric: 'model_pd_12m', value: pd, unit: 'ratio', availability: pd === null ? 'unavailable' : 'published', source_field: pointer('rows', i, 'hazard', 'pd_12m') }),
    );
  });
  return out;
}

function firstSource(filing: JsonObject): string | null {
  const sources = member(filing, 'sources');
  if (!Array.isArray(sources) || sources.length === 0) return null;
  if (typeof sources[0] === 'string') return textAt(sources, 0);
  return textAt(sources[0], 'url');
}

function filingRows(base: RowBase, document: JsonObject): EvidenceRow[] {
  const disclosures = member(document, 'current_disclosures');
  if (!isObject(disclosures) || member(disclosures, 'schema') !== FILINGS_SCHEMA) return [];
  const filings = member(disclosures, 'rows');
  if (!Array.isArray(filings)) return [];
  const out: EvidenceRow[] = [];
  filings.forEach((filing, i) => {
    if (!isObject(filing)) return;
    const metrics = member(filing, 'metrics');
    if (!isObject(metrics)) return;
    const status = textAt(filing, 'status');
    // Only a filing that is the current observation shows figures; stale, superseded or
    // unlabelled filings keep their metadata and lose their values.
    const current = status !== null && normaliseLabel(status) === 'current';
    const filingBlocked = !current || anyBlocked([document, disclosures, filing], 'raw');
    const common = {
      entity_id: textAt(filing, 'slug'),
      entity_name: textAt(filing, 'name'),
      as_of: textAt(filing, 'period_end'),
      source_status: status,
      observation_url: firstSource(filing),
      knowledge_time: textAt(filing, 'available_at'),
      rights_status: textAt(filing, 'rights_status'),
    };
    for (const metric of Object.keys(metrics)) {
      const node = metrics[metric];
      if (!isObject(node)) continue;
      const value = filingBlocked || isBlocked(node, 'raw') ? null : numberAt(node, 'value');
      out.push(makeRow(base, {
        ...common,
        metric,
        value,
        unit: textAt(node, 'unit'),
        availability: value === null ? 'unavailable' : 'published',
        source_field: pointer('current_disclosures', 'rows', i, 'metrics', metric, 'value'),
        context: contextJson({ score_authority: false, filing_status: status, metric_status: textAt(node, 'status') }),
      }));
    }
  });
  return out;
}

export const projectBankRisk: ListProjector = ({ document, base }) => {
  if (!isObject(document)) return [];
  const rows = member(document, 'rows');
  if (!Array.isArray(rows)) return [];
  return [...boardRows(base, document, rows), ...filingRows(base, document)];
};
