/**
 * The few DOM members the extractor touches, and what it asks of its surroundings. The worker
 * compiles without the DOM lib (it is a Node program), and the same code runs over Chromium's
 * live DOM and over linkedom's parsed one, so these describe just what both provide.
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
  readonly shadowRoot?: PNode | null;
  readonly parentElement: PElement | null;
  readonly previousElementSibling: PElement | null;
  readonly nextElementSibling: PElement | null;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  closest(selector: string): PElement | null;
  querySelector(selector: string): PElement | null;
  querySelectorAll(selector: string): ArrayLike<PElement>;
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
  readonly body: PElement | null;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

/**
 * What the extractor needs from where it runs. In the page these come from the browser (computed
 * style, `innerText`, resolved URLs); over parsed HTML they are worked out from the markup.
 */
export interface ExtractEnv {
  /** Computed `display`, `visibility` and `position` of an element. */
  style(el: PElement): PStyle;
  /** The element's text as a reader sees it (no script or style text), untrimmed. */
  text(el: PElement): string;
  /** An absolute URL from a link's `href` or an image's source; '' when it has none. */
  url(el: PElement, attr: 'href' | 'src'): string;
  /** The document's own URL without fragment, so links within the page are not kept. */
  readonly documentUrl: string;
  /** The document inside an <iframe> when it may be read (same origin); null otherwise. */
  frameDocument(el: PElement): PDocument | null;
}
