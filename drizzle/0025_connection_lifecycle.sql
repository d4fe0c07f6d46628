ALTER TABLE "cloud_accounts" ADD COLUMN "answered_by" text;--> statement-breakpoint
ALTER TABLE "cloud_accounts" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cloud_accounts" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "dns_connections" ADD COLUMN "answered_by" text;--> statement-breakpoint
ALTER TABLE "dns_connections" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dns_connections" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "cloud_accounts" ADD CONSTRAINT "cloud_accounts_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dns_connections" ADD CONSTRAINT "dns_connections_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Connections made before this answer to the member whose address they named as their maker.
UPDATE "dns_connections" c SET "answered_by" = m."user_id" FROM "workspace_members" m JOIN "users" u ON u."id" = m."user_id" WHERE m."workspace_id" = c."workspace_id" AND lower(u."email") = lower(c."created_by");--> statement-breakpoint
UPDATE "cloud_accounts" c SET "answered_by" = m."user_id" FROM "workspace_members" m JOIN "users" u ON u."id" = m."user_id" WHERE m."workspace_id" = c."workspace_id" AND lower(u."email") = lower(c."created_by");
