import { SelectField } from '@/components/ui/field.tsx';

/** The role to give a newcomer, among those the person may hand out. */
export function RoleField({ roles }: { roles: string[] }) {
  return (
    <SelectField label="Role" name="role" defaultValue="member">
      {roles.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </SelectField>
  );
}
