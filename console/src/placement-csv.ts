/** The placements loaded, as CSV (the Placements page's export): every cell through lib/csv.ts. */
import { csvLine } from '../../lib/csv';
import type { paths } from './api/client';

export type Placement = paths['/api/placements']['get']['responses'][200]['content']['application/json']['data'][number];

/** The loaded rows as CSV: what the table shows, the amount as a plain number; every cell through lib/csv.ts. */
export function placementsCsv(rows: readonly Placement[]): string {
  const head = csvLine([
    'Candidate',
    'Requisition',
    'Status',
    'Start date',
    'End date',
    'Amount',
    'Currency',
    'Period',
    'Employment type',
    'Location',
    'Hired at',
    'Placement id',
  ]);
  return (
    head +
    rows
      .map((p) =>
        csvLine([
          p.candidate_name,
          p.req_title ?? '',
          p.status,
          p.start_date ?? '',
          p.end_date ?? '',
          p.compensation?.amount?.toString() ?? '',
          p.compensation?.currency ?? '',
          p.compensation?.period ?? '',
          p.employment_type ?? '',
          p.location ?? '',
          p.hired_at,
          p.id,
        ]),
      )
      .join('')
  );
}
