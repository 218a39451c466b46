'use client';
// What the room's side panels share: a list read through the API, read again
// when `changes` changes (the socket said it changed elsewhere) and after each
// change the person makes, with the API's message when a read or a change fails.
import { useCallback, useEffect, useState } from 'react';

export function useRoomList<T>(read: () => Promise<T>, changes: number) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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

  /** Runs a change, then reads the list again; busy meanwhile. */
  async function act(work: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await work();
      await load();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return { value, error, busy, act };
}
