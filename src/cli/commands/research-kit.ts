import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { SERVICE_NAME, SERVICE_VERSION } from '../../core/build-info.js';
import {
  CaptureRefused, captureRequest, collect, DESK_DATASETS, KitUsageError, requestHeaders, type Capture, type CaptureRequest, type Progress, type RawOptions,
} from '../../data/kit/collect.js';
import { exportFiles, type ExportFiles } from '../../data/kit/export.js';
import { httpGet } from '../../data/kit/get.js';

interface KitOptions extends RawOptions {
  desk?: boolean;
  out?: string;
}

function progressBar(): Progress | undefined {
  if (!process.stderr.isTTY) return undefined;
  return ({ dataset, page, rows, total }) => {
    const width = 30;
    const filled = total === 0 ? width : Math.min(width, Math.round((rows / total) * width));
    process.stderr.write(`\r${dataset} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${rows}/${total} rows, page ${page}`);
    if (rows >= total) process.stderr.write('\n');
  };
}

function writeDir(dir: string, files: ExportFiles): void {
  fs.mkdirSync(dir);
  for (const name of ['evidence.json', 'rows.csv', 'receipt.json'] as const) fs.writeFileSync(path.join(dir, name), files[name]);
}

/**
 * `evidence-desk research-kit`: a complete, source-consistent capture of a dataset (or, with
 * --desk, of the three desk datasets) over the HTTP API, written to a new directory.
 * Prints one JSON line; exit 0 written, 1 capture refused (the reason), 2 could not run.
 */
export function registerResearchKit(program: Command): void {
  program
    .command('research-kit')
    .description('capture every page of a dataset from one snapshot and write evidence.json, rows.csv and receipt.json to a new directory (exit 0 written, 1 refused, 2 could not run)')
    .option('--dataset <id>', 'the dataset to capture')
    .option('--desk', 'capture money_markets, bank_risk and market_liquidity, one sub-directory each')
    .option('--entity <text>', 'entity filter (not with --desk)')
    .option('--start-date <YYYY-MM-DD>', 'keep rows dated on or after this day')
    .option('--end-date <YYYY-MM-DD>', 'keep rows dated on or before this day')
    .option('--page-size <n>', 'rows per page, 1..2000 (default 200)')
    .option('--max-pages <n>', 'refuse rather than read more pages than this, 1..20 (default 10)')
    .option('--snapshot <id>', 'capture this stored snapshot (a snapshot_id cited earlier)')
    .option('--base <url>', 'the service base URL', 'http://127.0.0.1:8080')
    .option('--synthetic', 'mark the requests as test traffic (left out of usage measurement)')
    .requiredOption('--out <dir>', 'output directory; must not exist yet')
    .action(async (options: KitOptions) => {
      const started = { out: options.out };
      try {
        const out = path.resolve(options.out ?? '');
        if (options.desk === true && (options.dataset !== undefined || (options.entity ?? '') !== '' || options.snapshot !== undefined)) {
          throw new KitUsageError('invalid_input', '--desk captures its three datasets unfiltered: leave out --dataset, --entity and --snapshot');
        }
        const requests: CaptureRequest[] = options.desk === true
          ? DESK_DATASETS.map((d) => captureRequest(options, d))
          : [captureRequest(options)];
        if (fs.existsSync(out)) throw new KitUsageError('output_exists', 'the output directory already exists; choose a new one');
        const get = httpGet();
        const userAgent = `${SERVICE_NAME}-research-kit/${SERVICE_VERSION}`;
        const captures: Capture[] = [];
        for (const request of requests) captures.push(await collect(request, get, requestHeaders(request, userAgent), progressBar()));

        // Everything was read and checked: only now is anything written, into a sibling
        // directory renamed into place, so a failure never leaves a partial export.
        const staging = fs.mkdtempSync(path.join(path.dirname(out), `.${path.basename(out)}.partial-`));
        try {
          const files = captures.map((c, i) => exportFiles(requests[i], c));
          if (options.desk === true) {
            for (const [i, c] of captures.entries()) writeDir(path.join(staging, c.dataset), files[i]);
          } else {
            for (const name of ['evidence.json', 'rows.csv', 'receipt.json'] as const) fs.writeFileSync(path.join(staging, name), files[0][name]);
          }
          if (fs.existsSync(out)) throw new KitUsageError('output_exists', 'the output directory appeared while capturing; nothing was written');
          fs.renameSync(staging, out);
        } catch (error) {
          fs.rmSync(staging, { recursive: true, force: true });
          throw error;
        }
        process.stdout.write(`${JSON.stringify({
          ok: true,
          out,
          captures: captures.map((c) => ({ dataset: c.dataset, snapshot_id: c.snapshotId, rows: c.rows.length, pages: c.pages.length })),
        })}\n`);
        process.exitCode = 0;
      } catch (error) {
        if (error instanceof CaptureRefused) {
          process.stdout.write(`${JSON.stringify({ ok: false, refused: true, reason: error.reason, error: error.message })}\n`);
          process.exitCode = 1;
        } else {
          const reason = error instanceof KitUsageError ? error.reason : 'could_not_run';
          const message = error instanceof Error ? error.message : String(error);
          process.stdout.write(`${JSON.stringify({ ok: false, refused: false, reason, error: message, out: started.out })}\n`);
          process.exitCode = 2;
        }
      }
    });
}
