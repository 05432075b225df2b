CREATE TABLE "notification_digests" (
	"member_id" uuid PRIMARY KEY NOT NULL,
	"digest" text NOT NULL,
	"last_period" text,
	CONSTRAINT "notification_digests_digest_check" CHECK (digest in ('off', 'daily', 'weekly'))
);
--> statement-breakpoint
CREATE TABLE "notification_fanouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"group_key" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"required_tier" text NOT NULL,
	"reached_member_id" uuid,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_fanouts_kind_check" CHECK (kind in ('reply', 'mention', 'like', 'session', 'recording', 'reminder', 'course', 'broadcast'))
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"site" boolean NOT NULL,
	"email" boolean NOT NULL,
	"push" boolean NOT NULL,
	CONSTRAINT "notification_preferences_member_id_kind_pk" PRIMARY KEY("member_id","kind"),
	CONSTRAINT "notification_preferences_kind_check" CHECK (kind in ('reply', 'mention', 'like', 'session', 'recording', 'reminder', 'course', 'broadcast'))
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"group_key" text NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"actor_count" integer DEFAULT 1 NOT NULL,
	"shown" boolean DEFAULT true NOT NULL,
	"required_tier" text DEFAULT 'free' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_kind_check" CHECK (kind in ('reply', 'mention', 'like', 'session', 'recording', 'reminder', 'course', 'broadcast')),
	CONSTRAINT "notifications_required_tier_check" CHECK (required_tier in ('free', 'bronze', 'silver', 'gold'))
);
--> statement-breakpoint
CREATE TABLE "push_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"notification_id" uuid,
	"payload" jsonb NOT NULL,
	"required_tier" text DEFAULT 'free' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_messages_required_tier_check" CHECK (required_tier in ('free', 'bronze', 'silver', 'gold'))
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "community_replies" ADD COLUMN "post_author_id" uuid;--> statement-breakpoint
ALTER TABLE "notification_digests" ADD CONSTRAINT "notification_digests_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_messages" ADD CONSTRAINT "push_messages_subscription_id_push_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."push_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_messages" ADD CONSTRAINT "push_messages_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_digests_due_idx" ON "notification_digests" USING btree ("digest","member_id") WHERE digest <> 'off';--> statement-breakpoint
CREATE UNIQUE INDEX "notification_fanouts_group_idx" ON "notification_fanouts" USING btree ("group_key");--> statement-breakpoint
CREATE INDEX "notification_fanouts_due_idx" ON "notification_fanouts" USING btree ("created_at") WHERE done_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_member_group_idx" ON "notifications" USING btree ("member_id","group_key");--> statement-breakpoint
CREATE INDEX "notifications_member_recent_idx" ON "notifications" USING btree ("member_id","updated_at","id") WHERE shown;--> statement-breakpoint
CREATE INDEX "notifications_member_unread_idx" ON "notifications" USING btree ("member_id","kind","updated_at") WHERE read_at is null and shown;--> statement-breakpoint
CREATE INDEX "push_messages_due_idx" ON "push_messages" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_idx" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_member_idx" ON "push_subscriptions" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "community_replies_to_author_idx" ON "community_replies" USING btree ("post_author_id","created_at","id") WHERE hidden_at is null;--> statement-breakpoint
-- Each reply knows whose discussion it answers, so "replies to your posts" is read a page at a time
-- on its own index (newest first), however many replies the member's discussions had.
CREATE FUNCTION "note_post_author"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."post_author_id" := (SELECT "author_id" FROM "community_posts" WHERE "id" = NEW."post_id");
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "community_replies_post_author" BEFORE INSERT ON "community_replies"
  FOR EACH ROW EXECUTE FUNCTION "note_post_author"();--> statement-breakpoint
UPDATE "community_replies" r SET "post_author_id" = p."author_id" FROM "community_posts" p WHERE p."id" = r."post_id";
