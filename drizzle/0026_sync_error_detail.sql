ALTER TABLE "cloud_accounts" ADD COLUMN "sync_error_detail" text;--> statement-breakpoint
ALTER TABLE "dns_connections" ADD COLUMN "sync_error_detail" text;