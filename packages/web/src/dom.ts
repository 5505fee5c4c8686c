// A tiny element builder, so the views read as the markup they produce.

type Listener = (event: Event) => void;
type AttributeValue = string | number | boolean | undefined | null;

export interface ElementSpec {
  class?: string;
  text?: string;
  /** Attributes; `true` sets an empty attribute, `false`/`undefined`/`null` leaves it out. */
  attrs?: Record<string, AttributeValue>;
  /** Live properties that attributes do not cover (a textarea's `value`, an input's `checked`). */
  props?: Record<string, unknown>;
  on?: Record<string, Listener>;
}

export type Child = Node | string | false | null | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, spec: ElementSpec = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (spec.class) element.className = spec.class;
  for (const [name, value] of Object.entries(spec.attrs ?? {})) {
    if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined && value !== null) element.setAttribute(name, String(value));
  }
  for (const [name, value] of Object.entries(spec.props ?? {})) (element as unknown as Record<string, unknown>)[name] = value;
  for (const [type, listener] of Object.entries(spec.on ?? {})) element.addEventListener(type, listener);
  // Text goes in as text, never as markup: question text and labels come from a model.
  if (spec.text !== undefined) element.textContent = spec.text;
  for (const child of children.flat()) {
    if (child === false || child === null || child === undefined) continue;
    element.append(child);
  }
  return element;
}
