/** Renders one URL in a fresh browser context: navigate, settle, read the DOM, map failures. */
export { renderPage, type RenderSettings } from './render-page.ts';
