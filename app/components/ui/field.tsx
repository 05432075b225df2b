import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

// Form controls with their label and the server's message for the field, linked for screen readers.
const CONTROL =
  'mt-1 w-full rounded-lg border border-gray-300 bg-white px-4 py-3 text-base font-normal focus:border-brand-700 focus:outline-none';
const COMPACT =
  'mt-1 min-h-11 w-full rounded-lg border border-gray-300 bg-white px-3 py-2 text-base font-normal focus:border-brand-700 focus:outline-none';

export const controlClass = (compact = false) => (compact ? COMPACT : CONTROL);

interface FieldProps {
  label: ReactNode;
  error?: string;
  compact?: boolean;
  className?: string;
}

function Field({ label, error, id, className, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

function useFieldId(given: string | undefined) {
  const generated = useId();
  return given ?? generated;
}

const describedBy = (id: string, error: string | undefined) => (error ? { 'aria-describedby': `${id}-error`, 'aria-invalid': true } : {});

export function Input({ label, error, compact, className, id, ...props }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const fieldId = useFieldId(id);
  return (
    <Field label={label} error={error} id={fieldId} className={className}>
      <input id={fieldId} className={controlClass(compact)} {...describedBy(fieldId, error)} {...props} />
    </Field>
  );
}

export function Textarea({ label, error, compact, className, id, ...props }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const fieldId = useFieldId(id);
  return (
    <Field label={label} error={error} id={fieldId} className={className}>
      <textarea id={fieldId} className={controlClass(compact)} {...describedBy(fieldId, error)} {...props} />
    </Field>
  );
}

export function Select({
  label,
  error,
  compact,
  className,
  id,
  options,
  ...props
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label: string }[] }) {
  const fieldId = useFieldId(id);
  return (
    <Field label={label} error={error} id={fieldId} className={className}>
      <select id={fieldId} className={controlClass(compact)} {...describedBy(fieldId, error)} {...props}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
