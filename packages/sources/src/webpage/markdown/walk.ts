import type { Classifier } from './classify.ts';
import type { ExtractEnv, PElement, PNode } from './dom.ts';

/**
 * What the block writers (tables, lists) need from the walk that calls them. Passed in rather
 * than imported, so the recursive walk and its helpers do not import each other.
 */
export interface Walk {
  readonly env: ExtractEnv;
  readonly classify: Classifier;
  /** The node's children as rendered: shadow root contents and slotted nodes included. */
  childrenOf(node: PNode): ArrayLike<PNode>;
  /** The node's content as one inline run (links, emphasis, images; `\n` only for <br>). */
  inlineOf(node: PNode): string;
  /** Renders one block-level element into `out`. */
  renderBlock(el: PElement, out: string[]): void;
  /** Renders the node's children as blocks into `out`. */
  renderChildren(parent: PNode, out: string[]): void;
  /** Adds a block unless it is empty or the character budget is spent. */
  push(out: string[], block: string): void;
}
