CREATE TABLE "integration_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"integration_id" uuid NOT NULL,
	"finding_key" text,
	"action" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_tickets" (
	"integration_id" uuid NOT NULL,
	"finding_key" text NOT NULL,
	"finding_id" uuid,
	"wanted" text NOT NULL,
	"delivered" text,
	"queued" text,
	"ref" text,
	"reason" text,
	"status" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_tickets_integration_id_finding_key_pk" PRIMARY KEY("integration_id","finding_key")
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"min_status" text NOT NULL,
	"settings" jsonb NOT NULL,
	"credential_sealed" text NOT NULL,
	"credential_hint" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "accepted_by" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "accepted_by_user_id" text;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "accepted_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "accepted_until_record_changes" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "lapsed_acceptance" jsonb;--> statement-breakpoint
ALTER TABLE "findings" ADD COLUMN "lapsed_alerted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_tickets" ADD CONSTRAINT "integration_tickets_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_tickets" ADD CONSTRAINT "integration_tickets_finding_id_findings_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."findings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_deliveries_created" ON "integration_deliveries" USING btree ("integration_id","created_at");--> statement-breakpoint
CREATE INDEX "integration_tickets_waiting" ON "integration_tickets" USING btree ("integration_id") WHERE "integration_tickets"."delivered" is distinct from "integration_tickets"."wanted" and "integration_tickets"."queued" is distinct from "integration_tickets"."wanted";--> statement-breakpoint
CREATE INDEX "integrations_workspace" ON "integrations" USING btree ("workspace_id");