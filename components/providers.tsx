'use client';
import type { ReactNode } from 'react';
import { ConfirmProvider } from './ui/dialog.tsx';
import { ToastProvider } from './ui/toast.tsx';

/** What every page's client components share: toasts and the confirm dialog. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <ConfirmProvider>{children}</ConfirmProvider>
    </ToastProvider>
  );
}
