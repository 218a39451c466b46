'use client';

import { useState } from 'react';
import { ActionButton } from '@/components/ui/action-button.tsx';
import { Field } from '@/components/ui/field.tsx';

/** Deletion goes ahead only once the person has typed their handle. */
export function DeleteAccountForm({ handle }: { handle: string }) {
  const [typed, setTyped] = useState('');
  return (
    <div className="max-w-sm space-y-4">
      <Field
        label={`Type your handle, ${handle}, to confirm`}
        name="confirm"
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
      <ActionButton method="DELETE" path="/v1/me" goTo="/" variant="danger" disabled={typed.trim() !== handle}>
        Delete my account
      </ActionButton>
    </div>
  );
}
