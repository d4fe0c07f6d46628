CREATE TABLE "app_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "alerts_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "alerted_at" timestamp with time zone;