ALTER TABLE "webhooks" ADD COLUMN "created_by" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "disabled_reason" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- A personal workspace's webhooks were added by its account (its id is the account's uid); a team's
-- stay without one, as nothing recorded who added them.
UPDATE "webhooks" SET "created_by" = "webhooks"."workspace_id" FROM "workspaces" WHERE "workspaces"."id" = "webhooks"."workspace_id" AND "workspaces"."personal";
