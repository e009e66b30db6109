import { HEAD } from './table-styles';

/** A table's header row: one column heading per (already translated) label. */
export function ColumnHeads(props: { labels: string[] }) {
  return (
    <thead>
      <tr>
        {props.labels.map((label) => (
          <th key={label} scope="col" style={HEAD}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
