CREATE TABLE "cloud_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" text NOT NULL,
	"provider" text NOT NULL,
	"label" text NOT NULL,
	"credential_sealed" text NOT NULL,
	"credential_hint" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"accounts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"unneeded_rights" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"grace_hours" integer DEFAULT 48 NOT NULL,
	"first_sync_at" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"sync_error" text,
	"sync_failing_since" timestamp with time zone,
	"failure_mailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cloud_inventory" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cloud_account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"name" text NOT NULL,
	"region" text,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cloud_accounts" ADD CONSTRAINT "cloud_accounts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_inventory" ADD CONSTRAINT "cloud_inventory_cloud_account_id_cloud_accounts_id_fk" FOREIGN KEY ("cloud_account_id") REFERENCES "public"."cloud_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cloud_accounts_workspace" ON "cloud_accounts" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cloud_inventory_item" ON "cloud_inventory" USING btree ("cloud_account_id","kind","value");