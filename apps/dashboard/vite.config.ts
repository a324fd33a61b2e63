import { defineConfig } from 'vite';

// Built into dist/, which the API serves under /dashboard (apps/api/src/session-api).
export default defineConfig({
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/dashboard/api': 'http://127.0.0.1:3000' } },
});
