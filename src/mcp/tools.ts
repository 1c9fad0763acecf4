// The tools the MCP server offers, across the three groups. Each tool answers with the
// exact body its REST operation sends (the text rendering) and the same value as
// structuredContent; a refusal is the REST error body, so a client reads the same `code`
// on either surface. Arguments arrive from parseStrictJson, so int/float tokens are kept.
import { AppError, CoreErrors } from '../core/errors.js';
import { encodePythonBody, isFloatToken, pyFloatRepr, rawIntegerOf } from '../core/json.js';
import { analysisToolSpecs } from '../analysis/tools/catalogue.js';
import { compileValidator, type Validator } from '../analysis/validate.js';
import { executeAnalysisTool } from '../analysis/tools/execute.js';
import { changesBody } from '../funding/changes.js';
import { historyBody, HISTORY_MAX_LIMIT } from '../funding/history.js';
import { currentEvidence, latestBody, type ReadConfig } from '../funding/latest.js';
import { sinceRequired } from '../funding/read-errors.js';
import { readLocalUpdate } from '../funding/job/local-update.js';
import { agentReview, REVIEW_DEFAULT_LIMIT, REVIEW_MAXIMUM_LIMIT } from '../data/agent.js';
import { encodeDataBody } from '../data/encode.js';
import { fundingReview } from '../data/funding-review.js';
import { listSources, queryDataset, type DataContext } from '../data/service.js';
import type { Config } from '../core/config.js';
import { hasLoneSurrogate } from '../core/strings.js';
import type { Instant } from '../core/time.js';
import type { Storage } from '../storage/storage.js';
import { capabilitiesBody } from '../http/plugins/analysis.js';

/** What the tools read from: the service's store and clock (embedded or in the server). */
export interface McpToolContext {
  config: Config;
  storage: Storage;
  clock: () => Instant;
  /** Group C's domain service, created on first use. */
  data(): DataContext;
}

/** The error body shape of the group a tool belongs to (`error` or `detail` key). */
export type ToolShape = 'analysis' | 'evidence';

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  shape: ToolShape;
  /** The REST body, encoded as the REST operation encodes it. Throws AppError to refuse. */
  run(args: Record<string, unknown>, ctx: McpToolContext): Promise<string>;
}

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false } as const;
const capabilitiesArguments: Validator<Record<string, never>> = compileValidator(NO_ARGUMENTS);

function analysisTools(): McpTool[] {
  // Each description is the one GET /v1/capabilities lists (analysis-mcp-tools §1.3).
  const tools: McpTool[] = analysisToolSpecs().map((spec) => ({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.schema as Record<string, unknown>,
    shape: 'analysis' as const,
    run: async (args) => (await executeAnalysisTool(spec.name, args)).body,
  }));
  tools.push({
    name: 'capabilities',
    title: 'Analysis capabilities',
    description:
      'The discovery document of the analysis tools (the body of GET /v1/capabilities): every tool with its input schema, the transports, limits and defaults. It describes the service, not any data.',
    inputSchema: { ...NO_ARGUMENTS },
    shape: 'analysis',
    run: async (args, ctx) => {
      // Checked as the other analysis tools check theirs (`input: expected object`, unknown fields).
      capabilitiesArguments.assert(args);
      return encodePythonBody(capabilitiesBody(ctx.config.bodyLimit));
    },
  });
  return tools;
}

const PACKET_ID = { type: 'string', description: 'A packet id (YYYYMMDDTHHMMSS.ffffffZ followed by 32 hex digits).' };

function fundingTools(): McpTool[] {
  const readConfig = (ctx: McpToolContext): ReadConfig => ctx.config;
  const sample = (ctx: McpToolContext) => ctx.config.mode === 'sample';
  return [
    {
      name: 'funding_latest',
      title: 'Current funding evidence packet',
      description:
        'The current hash-verified USD funding-market evidence packet (GET /v1/funding/latest): nine publisher observations as of review_asof, with the packet digests. It is a record of what the publishers printed, not a forecast or a trading signal; when the newest capture failed or is too old the tool refuses (latest_unavailable) rather than answer with an older packet.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      shape: 'evidence',
      run: async (args, ctx) => {
        noMembers(args);
        const { packet } = await currentEvidence(ctx.storage, readConfig(ctx), ctx.clock());
        return latestBody(packet, sample(ctx)).body;
      },
    },
    {
      name: 'funding_changes',
      title: 'Changes since an earlier funding packet',
      description:
        'Metric-by-metric differences from the packet `since` to the current one (GET /v1/funding/changes); `until` makes the call fail if the current packet is no longer that one. A difference is a change in what publishers printed, not a judgement on the market.',
      inputSchema: {
        type: 'object',
        properties: { since: PACKET_ID, until: PACKET_ID },
        required: ['since'],
        additionalProperties: false,
      },
      shape: 'evidence',
      run: async (args, ctx) => {
        onlyMembers(args, ['since', 'until']);
        const since = optionalString(args, 'since');
        if (since === undefined) throw sinceRequired();
        const until = optionalString(args, 'until');
        const { encoded } = await changesBody(ctx.storage, readConfig(ctx), ctx.clock(), { since, until });
        return encoded.body;
      },
    },
    {
      name: 'funding_history',
      title: 'Funding packet archive',
      description:
        'The archived packets, newest first, a page at a time (GET /v1/funding/history), and the newest capture attempt. Readable even while the current packet is unavailable; listing a packet says it was captured and verified, not that its values are current.',
      inputSchema: {
        type: 'object',
        properties: {
          as_of: { type: 'string', description: 'ISO 8601 instant with a zone; packets archived at or before it. Defaults to now.' },
          before: PACKET_ID,
          limit: { type: 'integer', minimum: 1, maximum: HISTORY_MAX_LIMIT },
        },
        additionalProperties: false,
      },
      shape: 'evidence',
      run: async (args, ctx) => {
        onlyMembers(args, ['as_of', 'before', 'limit']);
        const limit = queryInteger(args, 'limit', 1, HISTORY_MAX_LIMIT);
        const encoded = await historyBody(ctx.storage, readConfig(ctx), ctx.clock(), {
          asOf: optionalString(args, 'as_of'),
          before: optionalString(args, 'before'),
          limit,
        });
        return encoded.body;
      },
    },
  ];
}

const TRANSPORT_NOTE = 'transport_status says whether every source answered this retrieval; it is not a statement about how fresh the data is.';

function dataTools(): McpTool[] {
  const text = (maxLength: number) => ({ type: 'string', maxLength });
  return [
    {
      name: 'data_query',
      title: 'Query a research dataset',
      description: `Rows of one dataset from one stored snapshot (the data query route), with their sources and receipts. Rows carry what the sources published, not verified facts, and no trading signal; ${TRANSPORT_NOTE}`,
      inputSchema: {
        type: 'object',
        properties: {
          dataset: { type: 'string', description: 'Dataset id, e.g. money_markets.' },
          entity: text(100),
          start_date: { type: 'string', description: 'YYYY-MM-DD' },
          end_date: { type: 'string', description: 'YYYY-MM-DD' },
          limit: { type: 'integer', minimum: 1 },
          offset: { type: 'integer', minimum: 0 },
          snapshot: { type: 'string', description: 'Answer from exactly this stored snapshot.' },
          as_retrieved_at: { type: 'string', description: 'Answer from the newest snapshot retrieved at or before this instant.' },
        },
        required: ['dataset'],
        additionalProperties: false,
      },
      shape: 'evidence',
      run: async (args, ctx) => {
        onlyMembers(args, ['dataset', 'entity', 'start_date', 'end_date', 'limit', 'offset', 'snapshot', 'as_retrieved_at']);
        // Types are the tool schema's; values are group C's reader's, given each number as the
        // query text a client sends for it (withQueryTexts): a bad one gets the 422 body REST
        // sends for that text, every problem listed.
        for (const name of ['dataset', 'entity', 'start_date', 'end_date', 'snapshot', 'as_retrieved_at']) queryString(args, name);
        for (const name of ['limit', 'offset']) optionalNumber(args, name);
        return dataText(await queryDataset(ctx.data(), withQueryTexts(args, ['limit', 'offset'])));
      },
    },
    {
      name: 'data_sources',
      title: 'Source health',
      description: `The source_health table: one row per registered source with its last retrieval and outcome. A healthy source is one that answered, not one whose numbers are right; ${TRANSPORT_NOTE}`,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      shape: 'evidence',
      run: async (args, ctx) => {
        noMembers(args);
        return dataText(await listSources(ctx.data()));
      },
    },
    {
      name: 'funding_review',
      title: 'USD funding review from the archive',
      description:
        'The funding review (GET /api/v1/funding-review), composed from this service\'s own funding archive: the newest capture attempt, the packet it names and a fresh check of that packet\'s stored hashes, with nine rows in a fixed order. ' +
        'When the newest attempt failed, is too old or no longer verifies, available and ready are false and issues say why; an older packet is never shown instead. ' +
        'It reports what publishers printed and how old the capture is, not a forecast, a trading signal or a claim that the numbers are right.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      shape: 'evidence',
      run: async (args, ctx) => {
        noMembers(args);
        return dataText(await fundingReview(ctx));
      },
    },
    {
      name: 'agent_review',
      title: 'Money markets, banks and liquidity for an agent',
      description:
        'The agent review (GET /api/v1/agent-review): the first page of money_markets, bank_risk (filtered by bank) and market_liquidity, each source read once, with a revision over the evidence. ' +
        'Pass the revision of an earlier answer as previous_revision to learn whether the evidence changed (unchanged answers come back without rows), and its snapshot_id as snapshot to answer again from exactly those stored snapshots. ' +
        `Rows are what the sources published, not verified facts and no trading signal; freshness is not evaluated, and ${TRANSPORT_NOTE}`,
      inputSchema: {
        type: 'object',
        properties: {
          bank: { ...text(100), description: 'Case-insensitive part of a bank\'s id or name; filters the bank_risk section only.' },
          limit: { type: 'integer', minimum: 1, maximum: REVIEW_MAXIMUM_LIMIT, description: `Rows per section (default ${REVIEW_DEFAULT_LIMIT}).` },
          previous_revision: { type: 'string', pattern: '^(?:[0-9a-f]{64})?$', description: 'The revision of an earlier answer.' },
          snapshot: {
            type: 'string',
            pattern: '^[0-9a-f]{32},[0-9a-f]{32},[0-9a-f]{32}$',
            description: 'The snapshot_id of an earlier answer (three snapshot ids joined by commas).',
          },
        },
        additionalProperties: false,
      },
      shape: 'evidence',
      run: async (args, ctx) => {
        onlyMembers(args, ['bank', 'limit', 'previous_revision', 'snapshot']);
        // As data_query: types here, values in group C's reader.
        for (const name of ['bank', 'previous_revision', 'snapshot']) queryString(args, name);
        optionalNumber(args, 'limit');
        return dataText(await agentReview(ctx.data(), withQueryTexts(args, ['limit'])));
      },
    },
  ];
}

/** A data group body as its REST route writes it (Python's number forms, compact). */
function dataText(body: unknown): string {
  return encodeDataBody(body).toString('utf8');
}

let registry: Map<string, McpTool> | undefined;

/** Every tool, sorted by name (the order tools/list gives them in). */
export function mcpTools(): readonly McpTool[] {
  return [...toolRegistry().values()];
}

export function mcpTool(name: string): McpTool | undefined {
  return toolRegistry().get(name);
}

function toolRegistry(): Map<string, McpTool> {
  if (registry === undefined) {
    const all = [...analysisTools(), ...fundingTools(), ...dataTools()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    registry = new Map(all.map((tool) => [tool.name, tool]));
  }
  return registry;
}

function refuse(message: string, path: string): never {
  throw new AppError(CoreErrors.invalid_request, message, { path });
}

function noMembers(args: Record<string, unknown>): void {
  onlyMembers(args, []);
}

function onlyMembers(args: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(args)) {
    if (!allowed.includes(key)) refuse(`unknown argument ${JSON.stringify(key)}${allowed.length ? `; this tool takes ${allowed.join(', ')}` : '; this tool takes none'}`, `/${key}`);
  }
}

function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  if (!Object.hasOwn(args, name)) return undefined;
  const value = args[name];
  if (typeof value !== 'string') refuse(`${name} must be a string`, `/${name}`);
  return value;
}

/**
 * A string group C reads as a query parameter. A lone surrogate is text no URL can carry
 * (it has no UTF-8 form), so REST never sees one: refused here as the tool's own argument
 * error rather than passed to code that can only meet well-formed text.
 */
function queryString(args: Record<string, unknown>, name: string): void {
  const value = optionalString(args, name);
  if (value !== undefined && hasLoneSurrogate(value)) refuse(`${name} holds a lone surrogate, which no query string can carry`, `/${name}`);
}

/**
 * The arguments with each named number replaced by the query text a client would send for
 * it, so group C reads what it reads over REST: an integer token as its exact digits (`-0`
 * kept), a float token as Python prints it (`2.0` stays "2.0", which REST reads as 2, and
 * `2.5` is refused as "2.5" is; a float beyond the double's range is Python's `inf`). A JSON
 * number has no one spelling: `1e3` reads as "1000.0", the same value and verdict as REST's
 * "1e3", echoed differently.
 */
function withQueryTexts(args: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const query = { ...args };
  for (const name of names) {
    const value = args[name];
    if (typeof value !== 'number') continue;
    query[name] = isFloatToken(args, name) ? floatText(value) : (rawIntegerOf(args, name) ?? (Object.is(value, -0) ? '-0' : String(value)));
  }
  return query;
}

function floatText(value: number): string {
  if (Number.isFinite(value)) return pyFloatRepr(value);
  return value > 0 ? 'inf' : '-inf';
}

function optionalNumber(args: Record<string, unknown>, name: string): void {
  // Any number has query text (withQueryTexts), which group C reads as REST reads it.
  if (!Object.hasOwn(args, name)) return;
  if (typeof args[name] !== 'number') refuse(`${name} must be an integer`, `/${name}`);
}

/**
 * An integer argument that REST takes as a query parameter with these bounds, refused with
 * the body the REST operation sends for the same value (its query schema's wording).
 */
function queryInteger(args: Record<string, unknown>, name: string, minimum: number, maximum: number): number | undefined {
  if (!Object.hasOwn(args, name)) return undefined;
  const value = args[name];
  // As REST reads the query text a client sends for it (see withQueryTexts): a float token
  // such as 2.0 is text REST refuses as a whole number; an integer token is its value, so
  // 1e21's digits and 2^53 + 1 are integers (too large) and -0 is 0. Digits beyond the double
  // range are ±Infinity to REST's schema too, and the operation refuses them (historyBody).
  if (typeof value === 'number' && !Number.isFinite(value) && !isFloatToken(args, name)) return value;
  const problem = typeof value !== 'number' || isFloatToken(args, name) || !Number.isInteger(value) ? 'must be integer'
    : value < minimum ? `must be >= ${minimum}`
      : value > maximum ? `must be <= ${maximum}`
        : undefined;
  if (problem !== undefined) refuse(`querystring/${name}: ${problem}`, `/${name}`);
  return value as number;
}

/** `funding_update` (stdio only): the verified local copy kept by `evidence-desk job --state DIR`. */
export function fundingUpdateTool(stateDir: string): McpTool {
  return {
    name: 'funding_update',
    title: 'Local funding evidence copy',
    description:
      'The funding packet that `evidence-desk job --state DIR` last fetched and verified, read from that directory without any network access and re-verified on every call: {update, review_asof, scope, observations, manifest, changes}. It is as current as the last job run, not live; it is publisher evidence, not a trading signal.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    shape: 'evidence',
    run: async (args) => {
      noMembers(args);
      return JSON.stringify(readLocalUpdate(stateDir));
    },
  };
}
