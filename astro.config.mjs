import mdx from '@astrojs/mdx';
import preact from '@astrojs/preact';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

// Islands are written against the React API and rendered by Preact (compat): the home page's
// budget of 30 KB of JavaScript cannot hold React DOM (~45 KB gzip) but holds Preact (~5 KB).
export default defineConfig({
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'never' },
  integrations: [preact({ compat: true }), mdx()],
  vite: { plugins: [tailwindcss()] },
});
