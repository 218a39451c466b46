// The design system's select: a styled native <select> (see field.tsx).
export { SelectField as Select, SelectField } from './field.tsx';
export { ChoiceField } from './choice-field.tsx';
