CREATE TABLE "team_quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"tier" text NOT NULL,
	"period" text NOT NULL,
	"price_per_seat_cents" integer NOT NULL,
	"contact_message_id" uuid,
	"created_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_quotes_tier_check" CHECK (tier in ('bronze', 'silver', 'gold')),
	CONSTRAINT "team_quotes_period_check" CHECK (period in ('monthly', 'yearly')),
	CONSTRAINT "team_quotes_price_check" CHECK (price_per_seat_cents >= 100)
);
--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "quote_id" uuid;--> statement-breakpoint
ALTER TABLE "team_quotes" ADD CONSTRAINT "team_quotes_contact_message_id_contact_messages_id_fk" FOREIGN KEY ("contact_message_id") REFERENCES "public"."contact_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_quotes_message_idx" ON "team_quotes" USING btree ("contact_message_id");--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_quote_id_team_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."team_quotes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "teams_quote_idx" ON "teams" USING btree ("quote_id");