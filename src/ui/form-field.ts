import { isJsonObject } from '../engine/json/index.ts';
import { h } from './dom.ts';

type Json = Record<string, unknown>;

/** What a field currently says: nothing, a JSON value, or text that is not yet a value (unparseable JSON). */
export type FieldValue =
  | { readonly kind: 'absent' }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'unreadable'; readonly message: string };

/** One line under a field: words for the person, and the engine's path and sentence for developers. */
export interface FieldMessage {
  /** `City: at least 1 character`. */
  readonly text: string;
  /** The path, `$.city` (kept in `data-path`). */
  readonly path: string;
  /** The engine's own line, `$.city: got 0 characters, want at least 1` (the line's tooltip). */
  readonly detail: string;
}

/** One form control generated from a property's schema. */
export interface FormField {
  readonly name: string;
  /** What the field's label says: the property's `title`, else its name. */
  readonly label: string;
  readonly element: HTMLElement;
  read(): FieldValue;
  /** Shows issue lines under the control (none: clears them). */
  showMessages(lines: readonly FieldMessage[]): void;
  /** Whether the person has changed this field (its issues are shown from then on). */
  readonly edited: boolean;
  /** Moves keyboard focus to the field's (first) control. */
  focus(): void;
}

export interface FormFieldOptions {
  /** Unique DOM id of the control. */
  readonly id: string;
  readonly required: boolean;
  readonly onInput: () => void;
}

interface Choice {
  readonly value: unknown;
  readonly label: string;
}

const label = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const numberText = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const absent: FieldValue = { kind: 'absent' };
const value = (v: unknown): FieldValue => ({ kind: 'value', value: v });

/** Single-choice options: `enum` (with legacy `enumNames`) or `oneOf` of `{const, title}`. */
function singleChoices(schema: Json): Choice[] | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((v, i) => ({ value: v, label: typeof names[i] === 'string' ? names[i] : label(v) }));
  }
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0 && schema.oneOf.every((o) => isJsonObject(o) && 'const' in o)) {
    return (schema.oneOf as Json[]).map((o) => ({ value: o.const, label: typeof o.title === 'string' ? o.title : label(o.const) }));
  }
  return undefined;
}

/** Multi-select options: an array whose `items` have an `enum` or an `anyOf` of `{const, title}`. */
function multiChoices(schema: Json): Choice[] | undefined {
  const items = schema.items;
  if (schema.type !== 'array' || !isJsonObject(items)) return undefined;
  if (Array.isArray(items.enum) && items.enum.length > 0) return items.enum.map((v) => ({ value: v, label: label(v) }));
  if (Array.isArray(items.anyOf) && items.anyOf.length > 0 && items.anyOf.every((o) => isJsonObject(o) && 'const' in o)) {
    return (items.anyOf as Json[]).map((o) => ({ value: o.const, label: typeof o.title === 'string' ? o.title : label(o.const) }));
  }
  return undefined;
}

/** A short hint of what the field wants: `integer, 1 to 10`, `email`, `JSON`. */
function hintOf(schema: Json, kind: string): string {
  if (kind === 'json') return 'JSON';
  const parts: string[] = [];
  if (schema.type === 'integer' || schema.type === 'number') parts.push(schema.type);
  if (typeof schema.format === 'string') parts.push(schema.format);
  const min = schema.minimum;
  const max = schema.maximum;
  if (typeof min === 'number' && typeof max === 'number') parts.push(`${min} to ${max}`);
  else if (typeof min === 'number') parts.push(`at least ${min}`);
  else if (typeof max === 'number') parts.push(`at most ${max}`);
  return parts.join(', ');
}

/**
 * Generates the control for one property: text, number, select (enum), checkbox (boolean), checkboxes
 * (multi-select), or a JSON textarea for anything else. Values are read leniently (a number field holding "abc"
 * yields the string), so the validator, not the form, says what is wrong.
 */
export function createFormField(name: string, propertySchema: unknown, options: FormFieldOptions): FormField {
  const schema = isJsonObject(propertySchema) ? propertySchema : {};
  const { id, required } = options;
  const title = typeof schema.title === 'string' ? schema.title : name;
  const fallback = schema.default;
  const single = singleChoices(schema);
  const multi = single === undefined ? multiChoices(schema) : undefined;
  const kind =
    single !== undefined
      ? 'select'
      : multi !== undefined
        ? 'multi'
        : schema.type === 'boolean'
          ? 'checkbox'
          : schema.type === 'string'
            ? 'text'
            : schema.type === 'number' || schema.type === 'integer'
              ? 'number'
              : 'json';

  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const description = typeof schema.description === 'string' ? schema.description : '';
  const hint = hintOf(schema, kind);
  const error = h('p', { class: 'field-error', id: errorId, 'data-testid': `error-${name}`, hidden: true });
  const hintText = [description, hint].filter((s) => s !== '').join(' · ');
  const hintElement = hintText === '' ? undefined : h('small', { class: 'field-hint', id: hintId }, hintText);
  const describedBy = [hintElement ? hintId : '', errorId].filter((s) => s !== '').join(' ');
  const labelText = [title, ...(required ? [h('span', { class: 'required', 'aria-hidden': 'true' }, ' *')] : [])];
  const testId = `field-${name}`;
  const controls: (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[] = [];
  let element: HTMLElement;
  let read: () => FieldValue;

  if (kind === 'multi') {
    const boxes = (multi as Choice[]).map((choice, i) => {
      const box = h('input', { type: 'checkbox', id: `${id}-${i}` });
      box.checked = Array.isArray(fallback) && fallback.some((v) => same(v, choice.value));
      controls.push(box);
      return { box, choice, item: h('label', { class: 'choice', for: `${id}-${i}` }, box, ` ${choice.label}`) };
    });
    element = h(
      'fieldset',
      { class: 'field multi', 'data-testid': testId, 'aria-describedby': describedBy },
      h('legend', {}, ...labelText),
      ...boxes.map((b) => b.item),
    );
    read = () => {
      const chosen = boxes.filter((b) => b.box.checked).map((b) => b.choice.value);
      return chosen.length === 0 && !required ? absent : value(chosen);
    };
  } else {
    let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    if (kind === 'select') {
      const choices = single as Choice[];
      const select = h('select', {});
      if (!required || fallback === undefined) select.append(h('option', { value: '' }, required ? '— choose —' : '(none)'));
      choices.forEach((choice, i) => {
        select.append(h('option', { value: String(i), selected: same(choice.value, fallback) }, choice.label));
      });
      control = select;
      read = () => (select.value === '' ? absent : value(choices[Number(select.value)]?.value));
    } else if (kind === 'checkbox') {
      const box = h('input', { type: 'checkbox' });
      box.checked = fallback === true;
      control = box;
      read = () => value(box.checked);
    } else if (kind === 'json') {
      const area = h('textarea', { rows: '3', spellcheck: 'false' });
      area.value = fallback === undefined ? '' : JSON.stringify(fallback, null, 2);
      control = area;
      read = () => {
        if (area.value.trim() === '') return absent;
        try {
          return value(JSON.parse(area.value));
        } catch (e) {
          return { kind: 'unreadable', message: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
        }
      };
    } else {
      const numeric = kind === 'number';
      const input = h('input', {
        type: 'text',
        autocomplete: 'off',
        inputmode: numeric ? (schema.type === 'integer' ? 'numeric' : 'decimal') : schema.format === 'email' ? 'email' : undefined,
      });
      if (numeric ? typeof fallback === 'number' : typeof fallback === 'string') input.value = String(fallback);
      control = input;
      read = () => {
        const text = input.value;
        if (!numeric) return text === '' && !required ? absent : value(text);
        const trimmed = text.trim();
        if (trimmed === '') return absent;
        return value(numberText.test(trimmed) ? Number(trimmed) : text);
      };
    }
    control.id = id;
    control.dataset.testid = testId;
    control.setAttribute('aria-describedby', describedBy);
    if (required) control.setAttribute('aria-required', 'true');
    controls.push(control);
    const labelElement = h('label', { for: id }, ...labelText);
    element =
      kind === 'checkbox'
        ? h('div', { class: 'field checkbox' }, control, labelElement)
        : h('div', { class: `field ${kind}` }, labelElement, control);
  }
  if (hintElement) element.append(hintElement);
  element.append(error);
  element.dataset.field = name;
  // `input` only: a `change` on blur would re-validate (and disable a button) in the middle of a click.
  let edited = false;
  for (const control of controls) {
    control.addEventListener('input', () => {
      edited = true;
      options.onInput();
    });
  }

  return {
    name,
    label: title,
    element,
    get edited() {
      return edited;
    },
    focus: () => controls[0]?.focus(),
    read: () => read(),
    showMessages(lines) {
      error.hidden = lines.length === 0;
      error.replaceChildren(
        ...lines.map((line) =>
          h('span', { class: 'issue', 'data-path': line.path, 'data-testid': 'field-issue', title: line.detail }, line.text),
        ),
      );
      for (const control of controls) control.setAttribute('aria-invalid', String(lines.length > 0));
    },
  };
}
