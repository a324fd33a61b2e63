/** Which elements are content, which are chrome, and how they flow: fixed lists the classifier reads. */

/** Elements that never carry readable content (or carry only controls and embeds). */
export const DROP_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'frame',
  'frameset',
  'object',
  'embed',
  'nav',
  'aside',
  'form',
  'select',
  'option',
  'input',
  'textarea',
  'dialog',
  'menu',
  'audio',
  'video',
  'map',
  'head',
  'link',
  'meta',
  'source',
  'track',
  'math',
]);

/** ARIA roles of navigation and overlays; banner and contentinfo are judged as headers/footers. */
export const DROP_ROLES = new Set([
  'navigation',
  'complementary',
  'search',
  'dialog',
  'alertdialog',
  'menu',
  'menubar',
  'toolbar',
  'tooltip',
]);

/** Elements that start a new block whatever their computed display. */
export const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
  'pre',
  'blockquote',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
  'hr',
  'address',
  'details',
  'summary',
  'body',
  'center',
  'fieldset',
  'hgroup',
  'iframe',
]);

export const INLINE_DISPLAYS = new Set([
  'inline',
  'inline-block',
  'inline-flex',
  'inline-grid',
  'ruby',
]);

/** Cookie and consent banners, by the names their vendors and authors give them. */
export const CONSENT =
  /(^|[\s_-])(cookie|cookies|consent|gdpr|onetrust|cookiebot|cc-window|cmp)([\s_-]|$)/i;
