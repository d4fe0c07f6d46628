/**
 * The curl samples of /docs/api. Kept here rather than inline in the MDX, whose expressions lose
 * the indentation of continued lines.
 */
export const API_EXAMPLES = {
  header: 'Authorization: Bearer dw_your_key',
  environment: `export DANGLEWATCH_URL=https://danglewatch.example.com
export DANGLEWATCH_KEY=dw_your_key`,
  listDomains: 'curl -s -H "Authorization: Bearer $DANGLEWATCH_KEY" "$DANGLEWATCH_URL/api/v1/domains"',
  startScan: `curl -s -X POST "$DANGLEWATCH_URL/api/v1/scans" \\
  -H "Authorization: Bearer $DANGLEWATCH_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"domain": "example.com", "scanType": "dangling-subdomains"}'`,
  readScan: 'curl -s -H "Authorization: Bearer $DANGLEWATCH_KEY" "$DANGLEWATCH_URL/api/v1/scans/SCAN_ID"',
  openFindings: `curl -s -H "Authorization: Bearer $DANGLEWATCH_KEY" \\
  "$DANGLEWATCH_URL/api/v1/findings?domain=example.com&state=open"`,
  cli: 'npx danglewatch scan example.com --server "$DANGLEWATCH_URL" --key "$DANGLEWATCH_KEY"',
} as const;
