#!/usr/bin/env node
// The package's command. Its TypeScript runs on Node 24's type stripping, with no build step.
// The restart comes before the first TypeScript import, so that only one process loads it all.
import { restartWithRuntimeSettings } from './runtime.js';

restartWithRuntimeSettings(import.meta.filename);
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
