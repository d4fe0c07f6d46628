#!/usr/bin/env node
// The package's command. Its TypeScript runs on Node 24's type stripping, with no build step.
import { main } from '../src/cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
