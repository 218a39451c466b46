import type { ReactNode } from 'react';
import type { Actor } from '@/lib/auth/tokens.ts';
import { SiteHeader } from './site-header.tsx';

/** The frame of every web page: the header and a centred main column. */
export function Page({ actor, title, children, width = 'max-w-5xl' }: { actor: Actor | null; title?: string; children: ReactNode; width?: string }) {
  return (
    <>
      <SiteHeader actor={actor} />
      <main className={`mx-auto ${width} px-4 py-10`}>
        {title ? <h1 className="mb-6 text-2xl font-bold">{title}</h1> : null}
        {children}
      </main>
    </>
  );
}
