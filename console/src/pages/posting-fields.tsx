/**
 * The posting editor's controls: each labelled, tied to its hint and to the API's error for its
 * field path (the refusal's `field`, such as `questions[1].options`), which is how an error from
 * the API is shown at the control it names.
 */
import type { ComponentChildren } from 'preact';
import { fieldId } from '../posting-draft';

export type FieldErrors = Record<string, string>;

interface Common {
  /** The API's field path; the element id follows from it. */
  path: string;
  label: ComponentChildren;
  errors: FieldErrors;
  hint?: ComponentChildren;
  optional?: boolean;
}

function described(id: string, hint: boolean, error: boolean) {
  return [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
}

function Wrap({ path, label, errors, hint, optional, children }: Common & { children: ComponentChildren }) {
  const id = fieldId(path);
  return (
    <div class="field">
      <label for={id}>
        {label}
        {optional && <span class="optional"> (optional)</span>}
      </label>
      {children}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {errors[path] && (
        <p class="field-error" id={`${id}-error`}>
          {errors[path]}
        </p>
      )}
    </div>
  );
}

const aria = (c: Common) => {
  const id = fieldId(c.path);
  return {
    id,
    'aria-invalid': c.errors[c.path] ? ('true' as const) : undefined,
    'aria-describedby': described(id, !!c.hint, !!c.errors[c.path]),
  };
};

export function TextIn(c: Common & { value: string; onInput: (v: string) => void; type?: 'text' | 'number'; inputMode?: 'decimal' }) {
  return (
    <Wrap {...c}>
      <input
        {...aria(c)}
        type={(c.type ?? 'text') as 'text'}
        inputMode={c.inputMode}
        value={c.value}
        autoComplete="off"
        onInput={(e) => c.onInput(e.currentTarget.value)}
      />
    </Wrap>
  );
}

export function AreaIn(c: Common & { value: string; onInput: (v: string) => void; rows?: number }) {
  return (
    <Wrap {...c}>
      <textarea {...aria(c)} rows={c.rows ?? 4} value={c.value} onInput={(e) => c.onInput(e.currentTarget.value)} />
    </Wrap>
  );
}

export function SelectIn<T extends string>(c: Common & { value: T; options: readonly (readonly [T, string])[]; onChange: (v: T) => void }) {
  return (
    <Wrap {...c}>
      <select {...aria(c)} value={c.value} onChange={(e) => c.onChange(e.currentTarget.value as T)}>
        {c.options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </Wrap>
  );
}

export function Check({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label class="check" for={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} /> {label}
    </label>
  );
}
