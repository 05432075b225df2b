CREATE TABLE "one_on_one_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"booking_id" uuid,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "one_on_one_changes_kind_check" CHECK (kind in ('booked', 'moved', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "team_quotes" ADD COLUMN "created_by_id" uuid;--> statement-breakpoint
ALTER TABLE "one_on_one_changes" ADD CONSTRAINT "one_on_one_changes_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_on_one_changes" ADD CONSTRAINT "one_on_one_changes_booking_id_one_on_one_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."one_on_one_bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "one_on_one_changes_member_idx" ON "one_on_one_changes" USING btree ("member_id","created_at");--> statement-breakpoint
ALTER TABLE "team_quotes" ADD CONSTRAINT "team_quotes_created_by_id_staff_accounts_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."staff_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_quotes_staff_idx" ON "team_quotes" USING btree ("created_by_id","created_at");--> statement-breakpoint
-- The offers made so far, by the account whose address made them.
UPDATE "team_quotes" SET "created_by_id" = "staff_accounts"."id" FROM "staff_accounts" WHERE lower("staff_accounts"."email") = lower("team_quotes"."created_by");--> statement-breakpoint
-- The changes of the last day, from the mail each sent the member: the allowance carries on.
INSERT INTO "one_on_one_changes" ("member_id", "kind", "created_at")
SELECT "members"."id", substring("outbox_messages"."kind" from 'one-on-one-(.*)'), "outbox_messages"."created_at"
FROM "outbox_messages" JOIN "members" ON lower("members"."email") = lower("outbox_messages"."to_address")
WHERE "outbox_messages"."kind" IN ('one-on-one-booked', 'one-on-one-moved', 'one-on-one-cancelled')
AND "outbox_messages"."created_at" > now() - interval '1 day';
