CREATE TABLE "first_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "ownership_checked_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "over_plan_limit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "kept_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "first_scans" ADD CONSTRAINT "first_scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "first_scans_user_domain" ON "first_scans" USING btree ("user_id","domain");--> statement-breakpoint
-- Domains verified before this: their ownership was last seen when they were verified.
UPDATE "domains" SET "ownership_checked_at" = coalesce("verified_at", "created_at");--> statement-breakpoint
-- Domains verified before this have had their first scan.
INSERT INTO "first_scans" ("user_id", "domain") SELECT "user_id", "domain" FROM "domains" WHERE "status" = 'verified' ON CONFLICT DO NOTHING;
