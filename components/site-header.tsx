import type { Actor } from '@/lib/auth/tokens.ts';

export function SiteHeader({ actor }: { actor: Actor | null }) {
  return (
    <header className="border-b border-slate-200">
      <nav className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
        <a href="/" className="text-lg font-semibold text-brand">
          Atrium
        </a>
        <div className="flex items-center gap-4 text-sm">
          <a href="/reference" className="hover:underline">
            API reference
          </a>
          {actor ? (
            <span className="text-slate-600">@{actor.user.handle}</span>
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
