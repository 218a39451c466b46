'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

// Recharts colours a legend entry's text like its bar, draws ticks in grey and
// the tooltip is white with text like the bars: all take the stylesheet's
// tokens instead, so they follow the scheme.
const tick = { fill: 'var(--color-muted)' };
const tooltip = { background: 'var(--color-surface)', borderColor: 'var(--color-line)' };

export function VisitorsChart({ daily }: { daily: { date: string; views: number; visitors: number }[] }) {
  return (
    <div className="h-64 w-full" role="img" aria-label="Daily views and visitors">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={daily}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="var(--color-line)" />
          <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={12} tick={tick} />
          <YAxis allowDecimals={false} fontSize={12} width={32} tick={tick} />
          <Tooltip contentStyle={tooltip} itemStyle={{ color: 'inherit' }} />
          <Legend formatter={(value: string) => <span className="text-muted">{value}</span>} />
          <Bar dataKey="views" name="Views" fill="#4338ca" />
          <Bar dataKey="visitors" name="Visitors" fill="#a5b4fc" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
