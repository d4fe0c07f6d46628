CREATE TABLE "findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"domain" text NOT NULL,
	"key" text NOT NULL,
	"subdomain" text NOT NULL,
	"latest" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"first_scan_id" uuid,
	"last_scan_id" uuid,
	"accepted_at" timestamp with time zone,
	"accepted_note" text
);
--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "findings_identity" ON "findings" USING btree ("user_id","domain","key");--> statement-breakpoint
CREATE INDEX "findings_user_resolved" ON "findings" USING btree ("user_id","resolved_at");