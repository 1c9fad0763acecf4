import fs from 'node:fs';
import type { Command } from 'commander';
import { nowInstant } from '../../core/time.js';
import { applicationCounts } from '../../applications/counts.js';
import { EVIDENCE_MAX_BYTES, reclassify, ReclassifyError } from '../../applications/reclassify.js';
import { openStorage } from '../../storage/open.js';
import { addConfigOptions, configFromOptions } from '../options.js';

function readEvidence(file: string): Buffer {
  const stat = fs.lstatSync(file);
  if (stat.isSymbolicLink() || !stat.isFile()) throw new ReclassifyError(`${file} is not a regular file`);
  if (stat.size > EVIDENCE_MAX_BYTES) throw new ReclassifyError(`the evidence file is larger than ${EVIDENCE_MAX_BYTES} bytes`);
  return fs.readFileSync(file);
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('operator: application keys (reclassify one, count them by class)');

  const reclass = keys
    .command('reclassify')
    .description('change the class of one application from now on (past completions keep theirs)')
    .requiredOption('--id <hex>', 'application id (32 lowercase hex)')
    .requiredOption('--class <class>', 'internal, unverified or external_verified')
    .option('--evidence <file>', 'JSON evidence (≤ 16 KiB) required for external_verified: {application_id, independent_operator: true, basis}');
  addConfigOptions(reclass, ['dataDir', 'databaseUrl']);
  reclass.action(async (options: Record<string, unknown>) => {
    const config = configFromOptions(options);
    let evidence: Buffer | undefined;
    try {
      evidence = typeof options.evidence === 'string' ? readEvidence(options.evidence) : undefined;
    } catch (error) {
      process.stderr.write(`evidence-desk keys reclassify: ${(error as Error).message}\n`);
      process.exitCode = 2;
      return;
    }
    const storage = await openStorage(config);
    try {
      const result = await reclassify({ storage, clock: nowInstant }, { applicationId: String(options.id), classification: String(options.class), evidence });
      process.stdout.write(JSON.stringify(result) + '\n');
    } catch (error) {
      if (!(error instanceof ReclassifyError)) throw error;
      process.stderr.write(`evidence-desk keys reclassify: ${error.message}\n`);
      process.exitCode = 2;
    } finally {
      await storage.close();
    }
  });

  const counts = keys.command('counts').description('retained applications per class (no ids, no tokens)');
  addConfigOptions(counts, ['dataDir', 'databaseUrl']);
  counts.action(async (options: Record<string, unknown>) => {
    const storage = await openStorage(configFromOptions(options));
    try {
      const byClass = await applicationCounts({ storage, clock: nowInstant });
      const total = Object.values(byClass).reduce((a, b) => a + b, 0);
      process.stdout.write(JSON.stringify({ retained_applications: total, by_class: byClass }) + '\n');
    } finally {
      await storage.close();
    }
  });
}
