import type { IncomingHttpHeaders } from 'node:http';
import { imageSize } from './image-size.ts';
import type { RecordedImage, RecordedMessage, RecordedRequest } from './types.ts';

/** Turns a raw chat-completions request into the shape tests assert on. */
export function recordRequest(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  rawBody: string,
): RecordedRequest {
  const body = parseJson(rawBody);
  const messages = Array.isArray(field(body, 'messages'))
    ? (field(body, 'messages') as unknown[]).map(recordMessage)
    : [];
  const model = field(body, 'model');
  return {
    method,
    path,
    headers: { ...headers },
    body,
    model: typeof model === 'string' ? model : undefined,
    messages,
    schema: field(field(field(body, 'response_format'), 'json_schema'), 'schema'),
    images: messages.flatMap((m) => m.images),
    text: messages
      .map((m) => m.text)
      .filter((t) => t !== '')
      .join('\n\n'),
  };
}

function recordMessage(message: unknown): RecordedMessage {
  const role = field(message, 'role');
  const content = field(message, 'content');
  const texts: string[] = [];
  const images: RecordedImage[] = [];
  if (typeof content === 'string') texts.push(content);
  if (Array.isArray(content)) {
    for (const part of content) {
      const type = field(part, 'type');
      if (type === 'text' && typeof field(part, 'text') === 'string') {
        texts.push(field(part, 'text') as string);
      } else if (type === 'image_url') {
        images.push(recordImage(field(part, 'image_url')));
      }
    }
  }
  return { role: typeof role === 'string' ? role : '', text: texts.join('\n'), images };
}

function recordImage(imageUrl: unknown): RecordedImage {
  const url = field(imageUrl, 'url');
  const detail = field(imageUrl, 'detail');
  const parsed = typeof url === 'string' ? /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url) : null;
  if (!parsed) {
    return {
      mime: '',
      bytes: 0,
      detail: typeof detail === 'string' ? detail : undefined,
      inline: false,
    };
  }
  const data = parsed[3] ?? '';
  const decoded = parsed[2] ? Buffer.from(data, 'base64') : Buffer.from(decodeURIComponent(data));
  const size = imageSize(decoded);
  return {
    mime: parsed[1] ?? '',
    bytes: decoded.length,
    detail: typeof detail === 'string' ? detail : undefined,
    inline: true,
    ...(size ?? {}),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
