/**
 * Vite build of the console (served by the server under /dashboard/; build/ui.ts runs it). Hashed file names
 * under assets/ are cached for a year by the server; index.html never is. No inline script ends up in
 * index.html (modulePreload polyfill off), so the page runs under script-src 'self'.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/dashboard/',
  plugins: [react()],
  // One favicon for both apps (ui-shared/public).
  publicDir: fileURLToPath(new URL('../ui-shared/public', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('../dist/ui/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      // GraphiQL's React-compiler runtime marks modules "use no memo", a hint for the React compiler, which
      // this build does not run; the bundler's notice that it drops the hint is noise.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    // `npx vite console` during development, with the server on :8080.
    proxy: { '/graphql': 'http://127.0.0.1:8080', '/v1': 'http://127.0.0.1:8080', '/openapi.json': 'http://127.0.0.1:8080' },
  },
});
