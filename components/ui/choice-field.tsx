import { SelectField } from './field.tsx';

/** A labelled menu of plain string choices, such as the roles someone may give. */
export function ChoiceField({ label, name, choices, defaultValue }: { label: string; name: string; choices: readonly string[]; defaultValue?: string }) {
  return (
    <SelectField label={label} name={name} defaultValue={defaultValue}>
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {choice}
        </option>
      ))}
    </SelectField>
  );
}
