CREATE TABLE "unsubscribe_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX IF EXISTS "members_unsubscribe_token_idx";--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "link_grant" jsonb;--> statement-breakpoint
ALTER TABLE "unsubscribe_links" ADD CONSTRAINT "unsubscribe_links_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unsubscribe_links_member_idx" ON "unsubscribe_links" USING btree ("member_id");--> statement-breakpoint
-- Unsubscribe links already delivered keep working: their tokens are kept as hashes only.
INSERT INTO "unsubscribe_links" ("token_hash", "member_id")
  SELECT encode(sha256(convert_to("unsubscribe_token", 'UTF8')), 'hex'), "id" FROM "members"
  ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "members" DROP COLUMN "unsubscribe_token";--> statement-breakpoint
-- No working link stays in the outbox: every message already sent or given up keeps its text,
-- with the token of each link taken out (a message still waiting is scrubbed once sent).
UPDATE "outbox_messages" SET
  "html" = regexp_replace("html", 'token=[A-Za-z0-9_%.-]+', 'token=removed', 'g'),
  "text" = regexp_replace("text", 'token=[A-Za-z0-9_%.-]+', 'token=removed', 'g'),
  "unsubscribe_url" = regexp_replace("unsubscribe_url", 'token=[A-Za-z0-9_%.-]+', 'token=removed', 'g')
  WHERE "status" <> 'pending';