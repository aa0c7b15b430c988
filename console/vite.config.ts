import { defineConfig } from 'vite';

/**
 * The staff console. Built into console/dist: index.html (served at `/admin` and every path under it, no-store)
 * and hashed assets under dist/assets (served at `/admin/assets/*`, immutable). Each area (platform, trading,
 * operator) is its own chunk, loaded when a staff member of that role first opens it. JSX goes through Vite's own
 * transform with Preact's automatic runtime, as in the iframe app.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
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
