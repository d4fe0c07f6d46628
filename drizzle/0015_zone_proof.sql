ALTER TABLE "dns_connection_zones" ADD COLUMN "delegated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "proof" text;--> statement-breakpoint
-- Verified domains linked to a provider zone stood on the zone listing, which the next sync now checks against public DNS; the rest stood on their TXT record.
UPDATE "domains" SET "proof" = CASE WHEN EXISTS (SELECT 1 FROM "dns_connection_zones" z WHERE z."domain_id" = "domains"."id") AND "inventory_source" IS NOT NULL AND "inventory_source" <> 'zone-file' THEN 'zone' ELSE 'txt' END WHERE "status" = 'verified';
