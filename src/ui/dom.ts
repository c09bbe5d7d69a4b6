/** Attribute values: a string is set as is, `true` sets an empty attribute, `false` and `undefined` leave it out. */
export type Attributes = Readonly<Record<string, string | boolean | undefined>>;

/** Creates an element with attributes and children (strings become text nodes, never HTML). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: readonly (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}
