import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

/** `client:session`: islands that only a signed-in visitor needs (the header's account area). */
const sessionDirective = {
  name: 'session-directive',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'session', entrypoint: './src/islands/auth/session-directive.ts' });
    },
  },
};

export default defineConfig({
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'never' },
  integrations: [react(), mdx(), sessionDirective],
  vite: { plugins: [tailwindcss()] },
});
