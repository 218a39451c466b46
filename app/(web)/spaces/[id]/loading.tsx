// Shown inside the space layout while a tab's page loads.
export default function Loading() {
  return (
    <div role="status" aria-label="Loading" className="space-y-3">
      <div className="h-6 w-1/3 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-40 animate-pulse rounded-lg bg-slate-100 dark:bg-slate-900" />
    </div>
  );
}
