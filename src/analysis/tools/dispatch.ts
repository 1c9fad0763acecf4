// One entry point for every analysis tool: validate the arguments against the tool's
// published schema (the reference's check order), run it, and encode the result the way
// the reference prints it. The REST routes, MCP tools/call and the CLI all go through
// runAnalysisTool, so the same arguments give the same bytes on every surface.
import { AppError } from '../../core/errors.js';
import { encodePythonBody, LoneSurrogateError } from '../../core/json.js';
import { dysonReference } from '../dyson.js';
import { AnalysisErrors } from '../errors.js';
import { assessMarket } from '../market.js';
import { triageNarrative } from '../narrative/triage.js';
import { assessSpectral } from '../spectral.js';
import { compileValidator, type Validator } from '../validate.js';
import { abTest } from './ab-test.js';
import { analysisToolSpec, type AnalysisToolName } from './catalogue.js';
import { didItChange } from './did-it-change.js';
import { ToolErrors } from './errors.js';
import { forecastNext } from './forecast-next.js';
import { realOrSampling } from './real-or-sampling.js';
import { scoreForecasts } from './score-forecasts.js';
import { whichMetricsMatter } from './which-metrics-matter.js';

interface Runner {
  validator: Validator<unknown>;
  run: AnyRun;
  /**
   * Where a non-finite result is blamed when the tool did not name a field itself. The four
   * REST operations keep their current bodies, which carry no path for this case.
   */
  overflowPath?: string;
}

/** Each tool takes its own request type, which the validator has just established. */
type AnyRun = (args: never) => unknown;

interface ToolRun {
  run: AnyRun;
  overflowPath?: string;
  /**
   * An unpaired surrogate is refused by the tool's request digest, after its domain checks,
   * where the reference's UTF-8 encoding fails (duplicate ids win over it); the other tools'
   * validators refuse it.
   */
  surrogatesAtDigest?: boolean;
}

const RUNS: Readonly<Record<AnalysisToolName, ToolRun>> = {
  ab_test: { run: abTest, overflowPath: '' },
  did_it_change: { run: didItChange, overflowPath: '/values' },
  dyson_reference: { run: dysonReference },
  forecast_next: { run: forecastNext, overflowPath: '/values' },
  market_assessment: { run: assessMarket, surrogatesAtDigest: true },
  narrative_triage: { run: triageNarrative, surrogatesAtDigest: true },
  real_or_sampling: { run: realOrSampling, overflowPath: '/values' },
  score_forecasts: { run: scoreForecasts, overflowPath: '/values' },
  // The spectral digest is computed over the request exactly as received.
  spectral_assessment: { run: (args) => assessSpectral(args, args), surrogatesAtDigest: true },
  which_metrics_matter: { run: whichMetricsMatter, overflowPath: '/evidence' },
};

const runners = new Map<string, Runner>();

/** Throws 404 `unknown_tool` unless `name` is an analysis tool (callers that read input after it check first). */
export function requireAnalysisTool(name: string): void {
  if (analysisToolSpec(name) === undefined) {
    throw new AppError(ToolErrors.unknown_tool, `there is no analysis tool called ${JSON.stringify(name)}`);
  }
}

function runnerFor(name: string): Runner {
  let runner = runners.get(name);
  if (runner !== undefined) return runner;
  requireAnalysisTool(name);
  const spec = analysisToolSpec(name)!;
  const { run, overflowPath, surrogatesAtDigest } = RUNS[spec.name];
  runner = { validator: compileValidator(spec.schema, { loneSurrogates: surrogatesAtDigest ? 'defer' : 'report' }), run, overflowPath };
  runners.set(name, runner);
  return runner;
}

export interface ToolOutcome {
  status: 200;
  /** The result object (number kinds and member order recorded beside it). */
  result: unknown;
  /** The result as the reference prints it: Python separators and number formatting. */
  body: string;
}

/**
 * Runs tool `name` on `args` (a value from parseStrictJson, so integer and float tokens are
 * told apart). Throws AppError: 404 `unknown_tool`, or a 422 with a registry code and, where
 * a request member is at fault, a JSON pointer `path`.
 */
export function runAnalysisTool(name: string, args: unknown): ToolOutcome {
  let kept: unknown;
  const body = runAnalysisToolEncoded(name, args, (result) => {
    kept = result;
    return encodePythonBody(result);
  });
  return { status: 200, result: kept, body };
}

/** As runAnalysisTool, with the encoding chosen by the caller (the worker pool writes bytes). */
export function runAnalysisToolEncoded<R>(name: string, args: unknown, encode: (result: unknown) => R): R {
  const runner = runnerFor(name);
  const validator: Validator<unknown> = runner.validator;
  validator.assert(args);
  try {
    return encode(runner.run(args as never));
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof LoneSurrogateError) {
      throw new AppError(AnalysisErrors.lone_surrogate, 'a string in the request holds an unpaired UTF-16 surrogate, which is not valid Unicode text', { cause: error });
    }
    if (error instanceof RangeError) {
      throw new AppError(AnalysisErrors.derived_statistic_overflow, 'a derived statistic is not a finite number; rescale the input units', {
        cause: error,
        path: runner.overflowPath,
      });
    }
    throw error;
  }
}

/** The result as UTF-8 bytes, for transports that send bytes. */
export function outcomeBytes(outcome: ToolOutcome): Buffer {
  return Buffer.from(outcome.body, 'utf8');
}
