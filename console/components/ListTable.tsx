import type { ReactNode } from 'react';
import { useWords } from '../language/ConsoleLanguage';

/** One column of a ListTable. */
export interface Column<T> {
  /** The column's header, and each cell's caption on a phone (data-label), unless `label` says otherwise. */
  header: string;
  cell: (row: T) => ReactNode;
  /** A cell's own caption on a phone, where it differs by row (a vehicle's "Driver" under "Company"). */
  label?: (row: T) => string;
  className?: (row: T) => string | undefined;
}

/**
 * The console's one list table: a header row, one row per item named by its first column (a row header, so
 * a screen reader says whose row a cell is in), and an optional last column of buttons. On a phone each row
 * is a card, each cell captioned by its column (styles.css, `table.rows`).
 */
export function ListTable<T>({
  columns,
  rows,
  rowKey,
  actions,
  className,
}: {
  /** The first column names the row. */
  columns: ReadonlyArray<Column<T> | false>;
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  /** The row's buttons, in the last column (its header is read out as "Actions"). */
  actions?: (row: T) => ReactNode;
  className?: string;
}) {
  const words = useWords();
  const shown = columns.filter((column): column is Column<T> => column !== false);
  const [first, ...rest] = shown;
  if (!first) return null;
  return (
    <table className={className ? `rows ${className}` : 'rows'}>
      <thead>
        <tr>
          {shown.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">{words.t('common.actions')}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            <th scope="row" data-label={first.label?.(row) ?? first.header} className={first.className?.(row)}>
              {first.cell(row)}
            </th>
            {rest.map((column) => (
              <td
                key={column.header}
                data-label={column.label?.(row) ?? column.header}
                className={column.className?.(row)}
              >
                {column.cell(row)}
              </td>
            ))}
            {actions ? (
              <td className="actions">
                <div className="buttons">{actions(row)}</div>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
