-- The plan and its Stripe subscription belong to a workspace. A personal workspace has its
-- account's uid as id, so each account's plan and billing move onto it in place before the
-- account's columns go: nothing is lost.
ALTER TABLE "workspaces" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "subscription_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "current_period_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "workspaces" AS w SET
	"tier" = u."tier",
	"stripe_customer_id" = u."stripe_customer_id",
	"stripe_subscription_id" = u."stripe_subscription_id",
	"subscription_status" = u."subscription_status",
	"current_period_end" = u."current_period_end",
	"cancel_at_period_end" = u."cancel_at_period_end"
FROM "users" AS u WHERE w."id" = u."id" AND w."personal";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_stripe_customer_id_unique";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "tier";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "stripe_customer_id";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "stripe_subscription_id";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "subscription_status";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "current_period_end";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "cancel_at_period_end";--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_stripe_customer_id_unique" UNIQUE("stripe_customer_id");
