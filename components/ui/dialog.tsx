'use client';
// Dialogs on the native <dialog> element opened with showModal(): the browser
// traps focus inside, makes the page behind inert, closes on Escape and gives
// focus back to the button that opened it. ConfirmProvider stands in for the
// browser's own dialog: `if (await confirm({ title, confirmLabel, danger })) ...`.
import { createContext, useCallback, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from './button.tsx';

export function Dialog({ open, onClose, title, description, children, className = '' }: { open: boolean; onClose: () => void; title: string; description?: ReactNode; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        if (event.target === ref.current) onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] max-w-md rounded-xl bg-surface p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:text-slate-100 ${className}`}
    >
      {open ? (
        <div className="p-5">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {description ? (
            <div id={descriptionId} className="mt-2 text-sm text-muted">
              {description}
            </div>
          ) : null}
          <div className="mt-4">{children}</div>
        </div>
      ) : null}
    </dialog>
  );
}

export type ConfirmOptions = { title: string; description?: ReactNode; confirmLabel: string; danger?: boolean };

const ConfirmContext = createContext<(options: ConfirmOptions) => Promise<boolean>>(async () => false);

/** Asks for confirmation in the one accessible dialog; resolves true when confirmed. */
export function useConfirm() {
  return useContext(ConfirmContext);
}

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [asked, setAsked] = useState<(ConfirmOptions & { resolve: (yes: boolean) => void }) | null>(null);
  const confirm = useCallback((options: ConfirmOptions) => new Promise<boolean>((resolve) => setAsked({ ...options, resolve })), []);
  const answer = (yes: boolean) => {
    asked?.resolve(yes);
    setAsked(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog open={asked !== null} onClose={() => answer(false)} title={asked?.title ?? ''} description={asked?.description}>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => answer(false)} autoFocus={asked?.danger}>
            Cancel
          </Button>
          <Button variant={asked?.danger ? 'danger' : 'primary'} onClick={() => answer(true)} autoFocus={!asked?.danger}>
            {asked?.confirmLabel}
          </Button>
        </div>
      </Dialog>
    </ConfirmContext.Provider>
  );
}
