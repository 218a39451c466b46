import type { Actor } from '@/lib/core/caller.ts';

export function SiteHeader({ actor }: { actor: Actor | null }) {
  return (
    <header className="border-b border-slate-200">
      <nav className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
        <a href="/" className="text-lg font-semibold text-brand">
          Atrium
        </a>
        <div className="flex flex-wrap items-center gap-4 text-sm">
          <a href="/reference" className="hover:underline">
            API reference
          </a>
          {actor ? (
            <>
              <a href="/settings" className="text-slate-600 hover:underline">
                @{actor.user.handle}
              </a>
              <a href="/signout" className="hover:underline">
                Sign out
              </a>
            </>
          ) : (
            <a href="/signin" className="hover:underline">
              Sign in
            </a>
          )}
        </div>
      </nav>
    </header>
  );
}
