import type { ReactNode } from 'react';

/** A simple data table that scrolls sideways on narrow screens. */
export function Table({ headers, children, label }: { headers: string[]; children: ReactNode; label: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={label}>
        <thead className="border-b border-line text-muted">
          <tr>
            {headers.map((h) => (
              <th key={h} className="whitespace-nowrap py-2 pr-4 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  );
}

export function Cell({ children }: { children: ReactNode }) {
  return <td className="py-2 pr-4 align-top">{children}</td>;
}
