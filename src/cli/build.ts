import { buildSite } from './build-site.ts';

/** `danglewatch build`: the static site into dist/, once, for every process or a CDN to serve. */
export async function build(args: string[]): Promise<number> {
  if (args.length > 0) {
    process.stderr.write('Usage: danglewatch build   (builds the site into dist/; takes no options)\n');
    return 2;
  }
  await buildSite();
  return 0;
}
