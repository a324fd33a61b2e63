/**
 * The few DOM members the in-page extractor touches. The worker compiles without the DOM lib
 * (it is a Node program), so these describe just enough of the browser's objects to type-check
 * code that only ever runs inside Chromium.
 */
export interface PNode {
  readonly nodeType: number;
  readonly nodeValue: string | null;
  readonly childNodes: ArrayLike<PNode>;
  readonly textContent: string | null;
}

export interface PElement extends PNode {
  readonly localName: string;
  readonly id: string;
  readonly shadowRoot: PNode | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  closest(selector: string): PElement | null;
  querySelector(selector: string): PElement | null;
  querySelectorAll(selector: string): ArrayLike<PElement>;
}

export interface PHtmlElement extends PElement {
  readonly innerText: string;
}

export interface PAnchor extends PElement {
  readonly href: string;
}

export interface PImage extends PElement {
  readonly alt: string;
  readonly currentSrc: string;
  readonly src: string;
}

export interface PCell extends PElement {
  readonly colSpan: number;
  readonly rowSpan: number;
}

export interface PRow extends PElement {
  readonly cells: ArrayLike<PCell>;
}

export interface PTable extends PElement {
  readonly rows: ArrayLike<PRow>;
  readonly caption: PElement | null;
  readonly tHead: PElement | null;
}

export interface POrderedList extends PElement {
  readonly start: number;
}

export interface PSlot extends PElement {
  assignedNodes(opts: { flatten: boolean }): PNode[];
}

export interface PStyle {
  readonly display: string;
  readonly visibility: string;
  readonly position: string;
}

export interface PDocument {
  readonly title: string;
  readonly body: PHtmlElement | null;
  readonly documentElement: PHtmlElement & { scrollHeight: number; outerHTML: string };
}

export interface PWindow {
  readonly document: PDocument;
  readonly location: { readonly href: string };
  getComputedStyle(el: PElement): PStyle;
}
