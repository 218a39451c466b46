'use client';
// Toasts say what just happened ("Token revoked"), with an undo where undoing
// is cheap. One polite live region, so screen readers hear them too.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './button.tsx';

export type Toast = { message: string; tone?: 'success' | 'error'; action?: { label: string; run: () => void | Promise<void> } };
type Shown = Toast & { id: number };

const ToastContext = createContext<(toast: Toast) => void>(() => {});

/** Shows a toast: `toast({ message, action })`. */
export function useToast() {
  return useContext(ToastContext);
}

// A toast that survives a full page load (window.location): kept in
// sessionStorage and shown by the next page.
const CARRIED = 'atrium-toast';
export function toastAfterReload(message: string) {
  try {
    sessionStorage.setItem(CARRIED, message);
  } catch {}
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Shown[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback(
    (toast: Toast) => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-2), { ...toast, id }]);
      setTimeout(() => dismiss(id), toast.action ? 10_000 : 6_000);
    },
    [dismiss],
  );
  useEffect(() => {
    try {
      const carried = sessionStorage.getItem(CARRIED);
      if (carried) {
        sessionStorage.removeItem(CARRIED);
        show({ message: carried });
      }
    } catch {}
  }, [show]);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div aria-live="polite" role="region" aria-label="Notifications" className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4 sm:items-end">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role={toast.tone === 'error' ? 'alert' : 'status'}
            className={`pointer-events-auto flex max-w-sm items-center gap-3 rounded-lg px-4 py-3 text-sm shadow-lg ${toast.tone === 'error' ? 'bg-red-700 text-white' : 'bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900'}`}
          >
            <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{toast.message}</span>
            {toast.action ? (
              <button
                type="button"
                className="rounded font-semibold underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
                onClick={() => {
                  dismiss(toast.id);
                  void toast.action!.run();
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
            <Button variant="ghost" size="sm" aria-label="Dismiss" className="text-current hover:bg-white/10" onClick={() => dismiss(toast.id)}>
              ×
            </Button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
