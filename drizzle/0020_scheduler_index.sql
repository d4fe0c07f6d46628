CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "domains_next_scan";--> statement-breakpoint
CREATE INDEX "domains_due" ON "domains" USING btree ("next_scan_at","id") WHERE "domains"."status" = 'verified' and "domains"."paused_reason" is null and "domains"."over_plan_limit" = false;--> statement-breakpoint
-- One active scan per domain name from now on: any second one of the same name (left by a race
-- before this index) is cancelled, keeping the running one, else the oldest.
UPDATE "scans" SET "status" = 'cancelled', "completed_at" = now(), "error" = 'Cancelled: another scan of this domain was already under way.' WHERE "status" IN ('pending', 'running') AND "id" NOT IN (SELECT DISTINCT ON ("workspace_id", "domain") "id" FROM "scans" WHERE "status" IN ('pending', 'running') ORDER BY "workspace_id", "domain", ("status" = 'running') DESC, "created_at", "id");--> statement-breakpoint
CREATE UNIQUE INDEX "scans_active" ON "scans" USING btree ("workspace_id","domain") WHERE "scans"."status" in ('pending', 'running');