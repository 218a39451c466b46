// The design system's inputs (see field.tsx).
export { Field as Input, Field, TextAreaField, CheckboxField, control } from './field.tsx';
