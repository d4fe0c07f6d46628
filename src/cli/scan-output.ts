import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { FINDING_STATUSES, type FindingView } from '../model/contract.ts';
import { readBaseline } from './scan-baseline.ts';
import { formatReport, REPORT_FORMATS, type ReportFormat, type ScanReport } from './scan-report.ts';

/** `danglewatch scan`'s options for pipelines: what is written where, and what fails the run. */
export const OUTPUT_OPTIONS = {
  format: { type: 'string' },
  json: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  'fail-on': { type: 'string' },
  baseline: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

export const OUTPUT_USAGE = `Output, for pipelines (with or without --server):
  --format text|json|sarif|csv   the report's format (default text; --json is --format json)
  --output, -o FILE              write the report to FILE instead of stdout (a summary goes to stderr)
  --fail-on claimable|likely|review
                                 the least status that fails the run (default review: any finding)
  --baseline FILE                a previous JSON or SARIF report: findings already in it are marked
                                 as known and do not fail the run
  --quiet, -q                    no report on stdout, no progress, no notes: the exit code tells
`;

const values = z.object({
  format: z
    .enum(REPORT_FORMATS, {
      error: (issue) => `--format must be one of ${REPORT_FORMATS.join(', ')}, got '${issue.input}'`,
    })
    .optional(),
  json: z.boolean().optional(),
  output: z.string().min(1, '--output needs a file name').optional(),
  'fail-on': z
    .enum(FINDING_STATUSES, {
      error: (issue) =>
        `--fail-on must be one of ${[...FINDING_STATUSES].reverse().join(', ')}, got '${issue.input}'`,
    })
    .default('review'),
  baseline: z.string().min(1, '--baseline needs a file name').optional(),
  quiet: z.boolean().default(false),
});

export interface OutputOptions {
  format: ReportFormat;
  /** Where the report goes; stdout when absent. */
  file?: string;
  failOn: FindingView['status'];
  /** Whether a finding was in the baseline; absent without --baseline. */
  known?: (finding: FindingView) => boolean;
  quiet: boolean;
}

/** Reads and checks the output options (and the baseline, so a bad one stops the run before the scan). */
export async function outputOptions(raw: Record<string, unknown>): Promise<OutputOptions> {
  const parsed = values.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'bad output options');
  const v = parsed.data;
  if (v.json && v.format && v.format !== 'json') throw new Error(`--json and --format ${v.format} disagree`);
  let known: OutputOptions['known'];
  if (v.baseline !== undefined) {
    try {
      known = await readBaseline(v.baseline);
    } catch (error) {
      throw new Error(`--baseline '${v.baseline}' ${(error as Error).message}`);
    }
  }
  return {
    format: v.format ?? (v.json ? 'json' : 'text'),
    ...(v.output === undefined ? {} : { file: v.output }),
    failOn: v['fail-on'],
    ...(known ? { known } : {}),
    quiet: v.quiet,
  };
}

/** Findings that fail the run: at or above --fail-on, and not known from the baseline. */
function failingFindings(findings: FindingView[], options: Pick<OutputOptions, 'failOn' | 'known'>) {
  const least = FINDING_STATUSES.indexOf(options.failOn);
  return findings.filter((f) => FINDING_STATUSES.indexOf(f.status) >= least && !options.known?.(f));
}

/** Writes the report where the options say; the exit code: 1 when a finding fails the run, else 0. */
export async function deliverReport(
  report: ScanReport,
  options: OutputOptions,
  streams: { stdout: { write(text: string): unknown }; stderr: { write(text: string): unknown } },
): Promise<number> {
  const text = formatReport(report, options.format, options.known);
  const { findings } = report.document;
  const failing = failingFindings(findings, options);
  if (options.file !== undefined) await writeFile(options.file, text);
  else if (!options.quiet) streams.stdout.write(text);
  if (options.file !== undefined && !options.quiet) {
    const known = options.known ? `, ${findings.filter(options.known).length} known from the baseline` : '';
    streams.stderr.write(
      `danglewatch scan: ${findings.length} findings${known}, ${failing.length} failing the run ` +
        `(--fail-on ${options.failOn}); ${options.format} report in ${options.file}\n`,
    );
  }
  return failing.length > 0 ? 1 : 0;
}
