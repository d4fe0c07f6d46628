import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'never' },
  integrations: [react(), mdx()],
  vite: {
    plugins: [tailwindcss()],
    // Vite's preload helper (~1 KB gzip) would ride along on every public page for the sake of the
    // Firebase chunk's two small dependencies, which /login can as well fetch after it.
    build: { modulePreload: false },
  },
});
