import { isJsonObject } from '../engine/json/index.ts';
import type { Issue } from '../protocol/issue.ts';
import { h } from './dom.ts';
import { fieldPath, isUnder } from './field-path.ts';
import { createFormField, type FieldMessage, type FormField } from './form-field.ts';
import { issueInWords } from './issue-words.ts';

/** A form generated from an object schema's `properties`. */
export interface SchemaForm {
  readonly element: HTMLElement;
  /** The instance the form describes, and issues found before any validation (text that is not JSON yet). */
  read(): { readonly value: unknown; readonly issues: readonly Issue[] };
  /**
   * Puts each issue under the field it is about, the rest in a list under the form; returns how many are shown.
   * Until `reveal()`, only issues of fields the person has edited are shown (nobody is told off before typing).
   */
  showIssues(issues: readonly Issue[]): number;
  /** Shows every issue from now on (an attempt to send) and moves focus to the first field that has one. */
  reveal(): void;
}

export interface SchemaFormOptions {
  /** Prefix of the DOM ids, unique per form on the page. */
  readonly idPrefix: string;
  readonly onInput: () => void;
}

type Json = Record<string, unknown>;

/**
 * Renders one field per property of an object schema. A schema without `properties` gets one JSON textarea for
 * the whole instance; an object schema with none at all takes `{}` and renders nothing to fill in.
 */
export function createSchemaForm(schema: unknown, options: SchemaFormOptions): SchemaForm {
  const properties = isJsonObject(schema) && isJsonObject(schema.properties) ? schema.properties : undefined;
  const required = new Set(
    isJsonObject(schema) && Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  const noArguments =
    isJsonObject(schema) && properties === undefined && Object.keys(schema).every((k) => k === 'type' || k.startsWith('$'));
  const whole = properties === undefined && !noArguments;

  const fields: { field: FormField; path: string }[] = [];
  if (properties !== undefined) {
    Object.entries(properties).forEach(([name, property], i) => {
      const field = createFormField(name, property, {
        id: `${options.idPrefix}-${i}`,
        required: required.has(name),
        onInput: options.onInput,
      });
      fields.push({ field, path: fieldPath(name) });
    });
  } else if (whole) {
    const field = createFormField(
      '$',
      { title: 'Arguments (JSON)', default: {} },
      { id: `${options.idPrefix}-0`, required: true, onInput: options.onInput },
    );
    fields.push({ field, path: '$' });
  }

  const formIssues = h('ul', { class: 'form-issues', 'data-testid': 'form-issues', tabindex: '-1', hidden: true });
  const element = h(
    'div',
    { class: 'schema-form' },
    ...(fields.length === 0 ? [h('p', { class: 'muted' }, 'No arguments.')] : fields.map(({ field }) => field.element)),
    formIssues,
  );

  /** The field an issue belongs to: by path, or for `$: missing required property "x"`, field x. */
  const fieldOf = (issue: Issue): { field: FormField; path: string } | undefined => {
    if (whole) return fields[0];
    const byPath = fields.find(({ path }) => path !== '$' && isUnder(issue.path, path));
    if (byPath) return byPath;
    if (issue.keyword === 'required' && issue.path === '$') {
      return fields.find(({ field }) => issue.message.endsWith(`property ${JSON.stringify(field.name)}`));
    }
    return undefined;
  };

  let current: readonly Issue[] = [];
  let revealed = false;
  const render = (): number => {
    const byField = new Map<FormField, FieldMessage[]>();
    const rest: string[] = [];
    for (const issue of current) {
      const detail = `${issue.path}: ${issue.message}`;
      const owner = fieldOf(issue);
      if (owner === undefined) rest.push(detail);
      else {
        const line = { text: issueInWords(issue, owner.field.label, owner.path), path: issue.path, detail };
        byField.set(owner.field, [...(byField.get(owner.field) ?? []), line]);
      }
    }
    const anyEdited = fields.some(({ field }) => field.edited);
    let shown = 0;
    for (const { field } of fields) {
      const lines = revealed || field.edited ? (byField.get(field) ?? []) : [];
      field.showMessages(lines);
      shown += lines.length;
    }
    const restShown = revealed || anyEdited ? rest : [];
    formIssues.replaceChildren(...restShown.map((line) => h('li', {}, line)));
    formIssues.hidden = restShown.length === 0;
    return shown + restShown.length;
  };

  return {
    element,
    read() {
      const issues: Issue[] = [];
      const value: Json = {};
      for (const { field, path } of fields) {
        const read = field.read();
        if (read.kind === 'unreadable') issues.push({ path, keyword: 'json', message: read.message });
        else if (whole) return { value: read.kind === 'value' ? read.value : {}, issues };
        // defineProperty: a property named __proto__ must stay a property.
        else if (read.kind === 'value')
          Object.defineProperty(value, field.name, { value: read.value, enumerable: true, writable: true, configurable: true });
      }
      return { value: whole ? {} : value, issues };
    },
    showIssues(issues) {
      current = issues;
      return render();
    },
    reveal() {
      revealed = true;
      render();
      const first = fields.find(({ field }) => field.element.querySelector('[aria-invalid="true"]') !== null);
      if (first !== undefined) first.field.focus();
      else if (!formIssues.hidden) formIssues.focus();
    },
  };
}
