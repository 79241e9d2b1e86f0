/**
 * The workspace console: a Preact single-page app, built to console/dist. The local gateway
 * serves dist/ (falling back to index.html for client-side routes); CDK uploads it to S3.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  // Preact's automatic JSX runtime, through Vite 8's built-in Oxc transform (no plugin needed).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  logLevel: 'warn',
  clearScreen: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The CSP allows scripts from 'self' only: never inline the module preload polyfill.
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
    // Everything the page needs is one small entry chunk: no inline assets (the CSP allows data: images only).
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/api': process.env.CONSOLE_API ?? 'http://127.0.0.1:3000' } },
});
