import { Button } from './button.tsx';
import { ErrorNote } from './card.tsx';

/**
 * A form's submit button, which says when it is busy, and its error, across
 * the form's grid: a form of two columns has the button on a row of its own,
 * one of three (fields, then the button) in the row's last cell.
 */
export function FormFooter({ busy, label, busyLabel, error, columns }: { busy: boolean; label: string; busyLabel: string; error: string | null; columns: 2 | 3 }) {
  const across = columns === 3 ? 'sm:col-span-3' : 'sm:col-span-2';
  const button = (
    <Button type="submit" disabled={busy}>
      {busy ? busyLabel : label}
    </Button>
  );
  return (
    <>
      {columns === 3 ? button : <div className={across}>{button}</div>}
      {error ? (
        <div className={across}>
          <ErrorNote>{error}</ErrorNote>
        </div>
      ) : null}
    </>
  );
}
