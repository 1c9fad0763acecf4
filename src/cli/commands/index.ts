import type { Command } from 'commander';
import { registerServe } from './serve.js';
import { registerMigrate } from './migrate.js';
import { registerJob } from './job.js';
import { registerKeys } from './keys.js';
import { registerUsageReport } from './usage-report.js';
import { registerCapture } from './capture.js';
import { registerAnalyse } from './analyse.js';
import { registerMcp } from './mcp.js';
import { registerResearchKit } from './research-kit.js';

/** Every sub-command, in the order `--help` lists them. */
export const COMMANDS: Array<(program: Command) => void> = [registerServe, registerMigrate, registerCapture, registerJob, registerKeys, registerUsageReport, registerAnalyse, registerResearchKit, registerMcp];
