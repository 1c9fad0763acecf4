// Tables every part of the service uses: named leases (cross-instance mutual exclusion).

export interface LeasesTable {
  name: string;
  holder: string;
  /** Unix epoch milliseconds after which the lease may be taken over. */
  expires_at: number;
}

export interface CoreTables {
  leases: LeasesTable;
}
