ALTER TABLE "domains" ADD COLUMN "proved_by" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "proof_source_id" uuid;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_proved_by_users_id_fk" FOREIGN KEY ("proved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_proof_source_id_domains_id_fk" FOREIGN KEY ("proof_source_id") REFERENCES "public"."domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Who proved each verified domain, as the audit log recorded its verification (the latest), so
-- that their proof counts in their other workspaces from the start.
UPDATE "domains" SET "proved_by" = "verified"."user_id" FROM (SELECT DISTINCT ON ("detail"->>'domainId') "detail"->>'domainId' AS "domain_id", "user_id" FROM "audit_log" WHERE "action" = 'domain.verified' ORDER BY "detail"->>'domainId', "created_at" DESC) AS "verified" WHERE "verified"."domain_id" = "domains"."id"::text AND "domains"."status" = 'verified';
