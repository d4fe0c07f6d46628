-- Workspaces own what users owned. Each account gets a personal workspace whose id is its uid, so
-- every owner column keeps its values and only changes name and target: nothing is copied, nothing lost.
CREATE TABLE "workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"personal" boolean DEFAULT false NOT NULL,
	"tier" text DEFAULT 'free' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"alerts_email" boolean DEFAULT true NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workspace_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "workspace_invitations_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_invitations" ADD CONSTRAINT "workspace_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_invitations_workspace" ON "workspace_invitations" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "workspace_members_user" ON "workspace_members" USING btree ("user_id");--> statement-breakpoint
INSERT INTO "workspaces" ("id", "name", "personal", "created_at") SELECT "id", 'Personal', true, "created_at" FROM "users";--> statement-breakpoint
INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "joined_at") SELECT "id", "id", 'owner', "created_at" FROM "users";--> statement-breakpoint
-- The database keeps the rule for every path that creates or deletes an account (sign-in, the
-- operator's tools, tests): an account has its personal workspace, and takes it along when deleted.
CREATE FUNCTION "personal_workspace_follows_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO "workspaces" ("id", "name", "personal") VALUES (NEW."id", 'Personal', true) ON CONFLICT ("id") DO NOTHING;
		INSERT INTO "workspace_members" ("workspace_id", "user_id", "role") VALUES (NEW."id", NEW."id", 'owner') ON CONFLICT DO NOTHING;
		RETURN NEW;
	END IF;
	DELETE FROM "workspaces" WHERE "id" = OLD."id" AND "personal";
	RETURN OLD;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_personal_workspace" AFTER INSERT OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "personal_workspace_follows_user"();--> statement-breakpoint
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "dns_connections" DROP CONSTRAINT "dns_connections_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "domains" DROP CONSTRAINT "domains_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "findings" DROP CONSTRAINT "findings_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "scans" DROP CONSTRAINT "scans_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "webhooks" DROP CONSTRAINT "webhooks_user_id_users_id_fk";--> statement-breakpoint
DROP INDEX "api_keys_user";--> statement-breakpoint
DROP INDEX "dns_connections_user";--> statement-breakpoint
DROP INDEX "domains_user_domain";--> statement-breakpoint
DROP INDEX "findings_user_resolved";--> statement-breakpoint
DROP INDEX "scans_user_created";--> statement-breakpoint
DROP INDEX "webhooks_user";--> statement-breakpoint
DROP INDEX "findings_identity";--> statement-breakpoint
ALTER TABLE "api_keys" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "dns_connections" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "domains" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "findings" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "scans" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "webhooks" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "workspace_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by" text;--> statement-breakpoint
UPDATE "api_keys" SET "created_by" = "workspace_id";--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dns_connections" ADD CONSTRAINT "dns_connections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "findings" ADD CONSTRAINT "findings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_workspace" ON "api_keys" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "audit_log_workspace_created" ON "audit_log" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "dns_connections_workspace" ON "dns_connections" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "domains_workspace_domain" ON "domains" USING btree ("workspace_id","domain");--> statement-breakpoint
CREATE INDEX "findings_workspace_resolved" ON "findings" USING btree ("workspace_id","resolved_at");--> statement-breakpoint
CREATE INDEX "scans_workspace_created" ON "scans" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "webhooks_workspace" ON "webhooks" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "findings_identity" ON "findings" USING btree ("workspace_id","domain","key");
