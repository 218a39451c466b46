import { CopyButton } from '@/components/ui/copy-button.tsx';

/** The first steps, for someone with nothing published yet: install the CLI, sign in, push. */
export function FirstRun({ server }: { server: string }) {
  const steps: [string, string][] = [
    // From a checkout of this server: the package is built from it (README, "The command-line tool").
    ['Install the command-line tool (from a checkout of Atrium, Node 22 or later)', 'npm run pack:cli && npm install -g .atrium/atrium-cli-0.1.0.tgz'],
    ['Sign in from your terminal', `atrium login --server ${server}`],
    ['Publish a folder', 'atrium push ./site -m "First version"'],
  ];
  return (
    <section aria-labelledby="first-run" className="rounded-lg border border-brand/30 bg-brand-soft p-5 dark:border-indigo-800 dark:bg-indigo-950/40">
      <h2 id="first-run" className="font-semibold">
        Publish your first site
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">Three commands from a terminal; each push sends only what changed.</p>
      <ol className="mt-4 space-y-3">
        {steps.map(([what, command], i) => (
          <li key={command} className="min-w-0">
            <p className="text-sm font-medium">
              {i + 1}. {what}
            </p>
            <div className="mt-1 flex min-w-0 items-center gap-2">
              <code tabIndex={0} className="min-w-0 flex-1 overflow-x-auto whitespace-nowrap rounded bg-white px-3 py-2 text-sm dark:bg-slate-900">{command}</code>
              <CopyButton value={command} label={`Copy: ${command}`} />
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
