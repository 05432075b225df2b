CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"percent_off" integer,
	"amount_off_cents" integer,
	"duration" text NOT NULL,
	"duration_months" integer,
	"plans" text[] NOT NULL,
	"ends_at" timestamp with time zone,
	"max_uses" integer,
	"stripe_coupon_id" text NOT NULL,
	"stripe_promotion_code_id" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "offers_duration_check" CHECK (duration in ('once', 'repeating', 'forever')),
	CONSTRAINT "offers_discount_check" CHECK ((percent_off is null) <> (amount_off_cents is null))
);
--> statement-breakpoint
CREATE TABLE "plan_trials" (
	"tier" text PRIMARY KEY NOT NULL,
	"days" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_trials_tier_check" CHECK (tier in ('bronze', 'silver', 'gold')),
	CONSTRAINT "plan_trials_days_check" CHECK (days between 0 and 90)
);
--> statement-breakpoint
CREATE TABLE "subscription_payments" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"subscription_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"paid_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "trial_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_code_idx" ON "offers" USING btree (upper("code"));--> statement-breakpoint
CREATE INDEX "offers_created_idx" ON "offers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "subscription_payments_subscription_idx" ON "subscription_payments" USING btree ("subscription_id");--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_offer_idx" ON "subscriptions" USING btree ("offer_id") WHERE offer_id is not null;