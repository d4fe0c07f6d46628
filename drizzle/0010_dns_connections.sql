CREATE TABLE "dns_connection_zones" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"zone" text NOT NULL,
	"domain_id" uuid
);
--> statement-breakpoint
CREATE TABLE "dns_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"provider" text NOT NULL,
	"label" text NOT NULL,
	"credential_sealed" text NOT NULL,
	"credential_hint" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"sync_error" text,
	"sync_failing_since" timestamp with time zone,
	"failure_mailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "zone_record_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"change" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"data" text NOT NULL,
	"ttl" integer NOT NULL,
	"source" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zone_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"domain_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"ttl" integer NOT NULL,
	"data" text NOT NULL,
	"source" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "inventory_source" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "inventory_read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dns_connection_zones" ADD CONSTRAINT "dns_connection_zones_connection_id_dns_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."dns_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dns_connection_zones" ADD CONSTRAINT "dns_connection_zones_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dns_connections" ADD CONSTRAINT "dns_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_record_changes" ADD CONSTRAINT "zone_record_changes_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zone_records" ADD CONSTRAINT "zone_records_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dns_connection_zones_zone" ON "dns_connection_zones" USING btree ("connection_id","zone");--> statement-breakpoint
CREATE INDEX "dns_connections_user" ON "dns_connections" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "zone_record_changes_domain_at" ON "zone_record_changes" USING btree ("domain_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "zone_records_record" ON "zone_records" USING btree ("domain_id","name","type","data");