ALTER TABLE "broadcast_deliveries" ADD COLUMN "outbox_message_id" uuid;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "audience_course_id" text;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "inactive_days" integer;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "delivered_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "failed_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "clicks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcast_deliveries" ADD CONSTRAINT "broadcast_deliveries_outbox_message_id_outbox_messages_id_fk" FOREIGN KEY ("outbox_message_id") REFERENCES "public"."outbox_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_audience_course_id_courses_id_fk" FOREIGN KEY ("audience_course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_deliveries_outbox_idx" ON "broadcast_deliveries" USING btree ("outbox_message_id");;--> statement-breakpoint
-- A broadcast's delivered and failed counts move as the mail worker settles each member's copy.
CREATE FUNCTION "count_broadcast_delivery"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "broadcasts" b SET
    "delivered_count" = b."delivered_count" + (CASE WHEN NEW."status" = 'sent' THEN 1 ELSE 0 END),
    "failed_count" = b."failed_count" + (CASE WHEN NEW."status" = 'failed' THEN 1 ELSE 0 END)
    FROM "broadcast_deliveries" d
    WHERE d."outbox_message_id" = NEW."id" AND b."id" = d."broadcast_id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "outbox_broadcast_settled" AFTER UPDATE OF "status" ON "outbox_messages"
  FOR EACH ROW WHEN (NEW."kind" = 'broadcast' AND OLD."status" IS DISTINCT FROM NEW."status" AND NEW."status" IN ('sent', 'failed'))
  EXECUTE FUNCTION "count_broadcast_delivery"();
