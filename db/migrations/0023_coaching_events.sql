CREATE TABLE "coaching_waitlist" (
	"session_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coaching_waitlist_session_id_member_id_pk" PRIMARY KEY("session_id","member_id")
);
--> statement-breakpoint
ALTER TABLE "coaching_series" ADD COLUMN "kind" text DEFAULT 'session' NOT NULL;--> statement-breakpoint
ALTER TABLE "coaching_series" ADD COLUMN "address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "coaching_waitlist" ADD CONSTRAINT "coaching_waitlist_session_id_coaching_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."coaching_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coaching_waitlist" ADD CONSTRAINT "coaching_waitlist_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coaching_waitlist_order_idx" ON "coaching_waitlist" USING btree ("session_id","created_at","member_id");--> statement-breakpoint
CREATE INDEX "coaching_waitlist_member_idx" ON "coaching_waitlist" USING btree ("member_id");--> statement-breakpoint
ALTER TABLE "coaching_series" ADD CONSTRAINT "coaching_series_kind_check" CHECK (kind in ('session', 'event'));--> statement-breakpoint
ALTER TABLE "coaching_series" ADD CONSTRAINT "coaching_series_place_check" CHECK (join_url <> '' or address <> '');