ALTER TABLE "contact_messages" ADD COLUMN "member_id" uuid;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "sender_tier" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "priority" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_messages_priority_idx" ON "contact_messages" USING btree ("priority","created_at","id");