import { CommandSteps } from '@/components/ui/command-steps.tsx';
import { firstPublishCommands } from '@/lib/web/cli-commands.ts';

/** The first steps, for someone with nothing published yet: install the CLI, sign in, link a folder, push. */
export function FirstRun({ server }: { server: string }) {
  return (
    <section aria-labelledby="first-run" className="rounded-lg border border-brand/30 bg-brand-soft p-5 dark:border-indigo-800 dark:bg-indigo-950/40">
      <h2 id="first-run" className="font-semibold">
        Publish your first site
      </h2>
      <p className="mt-1 text-sm text-muted">Four commands from a terminal; each push sends only what changed.</p>
      <div className="mt-4">
        <CommandSteps steps={firstPublishCommands(server)} />
      </div>
    </section>
  );
}
