ALTER TABLE "broadcasts" ADD COLUMN "unsubscribed_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- An unsubscribe counts against the last broadcast the member got (if any): what made them leave.
CREATE FUNCTION "count_broadcast_unsubscribe"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "broadcasts" SET "unsubscribed_count" = "unsubscribed_count" + 1
    WHERE "id" = (SELECT "broadcast_id" FROM "broadcast_deliveries" WHERE "member_id" = NEW."id" ORDER BY "sent_at" DESC LIMIT 1);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "members_unsubscribed" AFTER UPDATE OF "email_opt_out" ON "members"
  FOR EACH ROW WHEN (NEW."email_opt_out" AND NOT OLD."email_opt_out")
  EXECUTE FUNCTION "count_broadcast_unsubscribe"();
