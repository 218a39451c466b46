'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export function VisitorsChart({ daily }: { daily: { date: string; views: number; visitors: number }[] }) {
  return (
    <div className="h-64 w-full" role="img" aria-label="Daily views and visitors">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={daily}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} width={32} />
          <Tooltip />
          <Legend />
          <Bar dataKey="views" name="Views" fill="#4338ca" />
          <Bar dataKey="visitors" name="Visitors" fill="#a5b4fc" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
