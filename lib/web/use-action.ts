'use client';
// The state of a button or form that calls the API: busy while it runs, the
// API's message when it fails, and a refresh of the server-rendered page
// (or another step) when it succeeds.
import { useRouter } from 'next/navigation';
import { useState } from 'react';

export function useAction() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run<T>(work: () => Promise<T>, then: (result: T) => void = () => router.refresh()): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      then(await work());
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, run };
}
