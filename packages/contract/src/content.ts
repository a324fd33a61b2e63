/**
 * What a prepared source becomes before it reaches the model: an ordered list of parts.
 * Text where the text is faithful, images (as data URLs) where it is not. Every source type
 * (text, pdf, image, webpage) produces this, so the model layer never knows where it came from.
 */
export type ContentPart =
  | {
      kind: 'text';
      text: string;
      /** page or section number, 1-based, for chunking */ unit?: number;
    }
  | {
      kind: 'image';
      /** `data:image/png;base64,...` or `data:image/jpeg;base64,...` */
      dataUrl: string;
      width: number;
      height: number;
      unit?: number;
      /** OpenAI image detail; `high` unless the image is tiny */
      detail?: 'low' | 'high' | 'auto';
    };

export interface PreparedSource {
  parts: ContentPart[];
  /** Optional context lines for the prompt, e.g. page title and final URL of a webpage. */
  meta?: Record<string, string>;
}
