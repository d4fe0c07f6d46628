ALTER TABLE "findings" ADD COLUMN "opened_by_scan_id" uuid;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "resolved_by_scan_id" uuid;--> statement-breakpoint
UPDATE "findings" SET "opened_by_scan_id" = "first_scan_id";
--> statement-breakpoint
-- A resolved finding was resolved by the scan that completed at that moment (the lifecycle stamps both alike).
UPDATE "findings" f SET "resolved_by_scan_id" = (
  SELECT s."id" FROM "scans" s
  WHERE s."workspace_id" = f."workspace_id" AND s."domain" = f."domain" AND s."completed_at" = f."resolved_at"
  ORDER BY s."id" LIMIT 1
) WHERE f."resolved_at" IS NOT NULL;
--> statement-breakpoint
-- Domains scanned before findings had a state (scans older than 0003) get one: the findings of their latest full scan.
INSERT INTO "findings" ("workspace_id", "domain", "key", "subdomain", "latest", "first_seen_at", "last_seen_at", "first_scan_id", "last_scan_id", "opened_by_scan_id")
SELECT DISTINCT ON (latest."workspace_id", latest."domain", item->>'subdomain', item->>'recordType', item->>'target', item->>'service')
  latest."workspace_id", latest."domain",
  encode(sha256(convert_to((item->>'subdomain') || E'\n' || (item->>'recordType') || E'\n' || (item->>'target') || E'\n' || (item->>'service'), 'UTF8')), 'hex'),
  item->>'subdomain', item, latest."completed_at", latest."completed_at", latest."id", latest."id", latest."id"
FROM (
  SELECT DISTINCT ON (s."workspace_id", s."domain") s.*
  FROM "scans" s
  WHERE s."status" = 'completed' AND (s."config" IS NULL OR s."config"->'names' IS NULL)
    AND NOT EXISTS (SELECT 1 FROM "findings" f WHERE f."workspace_id" = s."workspace_id" AND f."domain" = s."domain")
  ORDER BY s."workspace_id", s."domain", s."completed_at" DESC
) latest, jsonb_array_elements(latest."findings") item
ON CONFLICT DO NOTHING;
