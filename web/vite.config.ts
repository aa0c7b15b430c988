import { defineConfig } from 'vite';

/**
 * The iframe sportsbook. Built into web/dist: index.html (served at `/?tenant=` with no-store) and hashed
 * assets under dist/assets (served at `/assets/*` with immutable caching); scripts/build.ts then writes the brotli
 * and gzip forms the server sends. JSX goes through Vite's own transform with Preact's automatic runtime; no
 * framework plugin.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: false,
  oxc: { jsx: { importSource: 'preact', runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
