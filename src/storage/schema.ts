// The whole database, as Kysely sees it: each area declares its tables in its own module.
import type { CoreTables } from './core-tables.js';
import type { ApplicationTables } from '../applications/tables.js';
import type { FundingTables } from '../funding/tables.js';
import type { DataTables } from '../data/tables.js';

export interface Database extends CoreTables, FundingTables, ApplicationTables, DataTables {}
