/** A table of one account's things (labels, watchlist entries), each reached by its id. */
export interface AccountCollection<Row extends { id: number }> {
  table: string;
  /** The select list the rows are read with (and `present` takes). */
  columns: string;
  /** What one is called in messages, e.g. "vehicle label". */
  noun: string;
  present: (row: Row) => unknown;
}
