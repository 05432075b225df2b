CREATE TABLE "billing_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"tier" text,
	"period" text,
	"price_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"refunded_cents" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_check" CHECK (status in ('incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused')),
	CONSTRAINT "subscriptions_tier_check" CHECK (tier is null or tier in ('bronze', 'silver', 'gold')),
	CONSTRAINT "subscriptions_period_check" CHECK (period is null or period in ('monthly', 'yearly'))
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "complimentary_tier" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_member_idx" ON "subscriptions" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "members_stripe_customer_idx" ON "members" USING btree ("stripe_customer_id");--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_complimentary_tier_check" CHECK (complimentary_tier is null or complimentary_tier in ('bronze', 'silver', 'gold'));--> statement-breakpoint
-- Before payments, every paid tier was given by staff: it stays, as a complimentary tier.
UPDATE "members" SET "complimentary_tier" = "membership_tier" WHERE "membership_tier" <> 'free';
