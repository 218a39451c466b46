import { CopyButton } from './copy-button.tsx';

/** Numbered steps, each a command to copy into a terminal. */
export function CommandSteps({ steps }: { steps: [what: string, command: string][] }) {
  return (
    <ol className="space-y-3">
      {steps.map(([what, command], i) => (
        <li key={command} className="min-w-0">
          <p className="text-sm font-medium">
            {i + 1}. {what}
          </p>
          <div className="mt-1 flex min-w-0 items-center gap-2">
            <code tabIndex={0} className="min-w-0 flex-1 overflow-x-auto whitespace-nowrap rounded bg-slate-100 px-3 py-2 text-sm dark:bg-slate-800">{command}</code>
            <CopyButton value={command} label={`Copy: ${command}`} />
          </div>
        </li>
      ))}
    </ol>
  );
}
