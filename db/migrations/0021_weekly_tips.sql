CREATE TABLE "weekly_tip_mails" (
	"member_id" uuid NOT NULL,
	"week_of" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "weekly_tip_mails_member_id_week_of_pk" PRIMARY KEY("member_id","week_of")
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "weekly_tips" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "weekly_tip_mails" ADD CONSTRAINT "weekly_tip_mails_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "members_weekly_tips_zone_idx" ON "members" USING btree ("time_zone","id") WHERE weekly_tips and not email_opt_out;