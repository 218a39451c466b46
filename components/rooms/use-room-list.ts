'use client';
// What the room's side panels share: a list read through the API, read again
// when `changes` changes (the socket said it changed elsewhere) and after each
// change the person makes, with a toast saying what the change did and the
// API's message when a read or a change fails.
import { useCallback, useEffect, useState } from 'react';
import { useToast } from '@/components/ui/toast.tsx';

export function useRoomList<T>(read: () => Promise<T>, changes: number) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();

  const load = useCallback(async () => {
    try {
      setValue(await read());
    } catch (failure) {
      setError((failure as Error).message);
    }
  }, [read]);

  useEffect(() => {
    load();
  }, [load, changes]);

  /** Runs a change, then reads the list again; busy meanwhile. `done` says what it did (a toast), from its result. */
  async function act<R>(work: () => Promise<R>, done?: (result: R) => string | null) {
    setBusy(true);
    setError(null);
    try {
      const result = await work();
      const message = done?.(result);
      if (message) toast({ message });
      await load();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return { value, error, busy, act };
}
