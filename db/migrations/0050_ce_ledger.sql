CREATE TABLE "ce_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"state" text NOT NULL,
	"source" text NOT NULL,
	"course_id" text,
	"certificate_id" uuid,
	"provider" text NOT NULL,
	"course_name" text NOT NULL,
	"hours" numeric(5, 1) NOT NULL,
	"topic" text NOT NULL,
	"completed_on" date NOT NULL,
	"approval_number" text,
	"certificate_key" text,
	"certificate_filename" text,
	"certificate_content_type" text,
	"certificate_bytes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ce_entries_hours_check" CHECK (hours > 0),
	CONSTRAINT "ce_entries_topic_check" CHECK (topic in ('ethics', 'fair_housing', 'agency', 'legal_update', 'contracts', 'risk_management', 'elective')),
	CONSTRAINT "ce_entries_source_check" CHECK (source in ('course', 'outside')),
	CONSTRAINT "ce_entries_state_check" CHECK (state in ('AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY'))
);
--> statement-breakpoint
CREATE TABLE "ce_reminders_sent" (
	"member_id" uuid NOT NULL,
	"state" text NOT NULL,
	"days_before" integer NOT NULL,
	"renews_on" date NOT NULL,
	"told" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ce_reminders_sent_member_id_state_days_before_renews_on_pk" PRIMARY KEY("member_id","state","days_before","renews_on")
);
--> statement-breakpoint
CREATE TABLE "ce_requirements" (
	"state" text NOT NULL,
	"licence_type" text NOT NULL,
	"hours_per_cycle" numeric(5, 1) NOT NULL,
	"cycle_months" integer NOT NULL,
	"topics" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"commission_address" text DEFAULT '' NOT NULL,
	"check_with_commission" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ce_requirements_state_licence_type_pk" PRIMARY KEY("state","licence_type"),
	CONSTRAINT "ce_requirements_state_check" CHECK (state in ('AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY')),
	CONSTRAINT "ce_requirements_type_check" CHECK (licence_type in ('salesperson', 'broker')),
	CONSTRAINT "ce_requirements_cycle_check" CHECK (cycle_months between 1 and 120 and hours_per_cycle > 0)
);
--> statement-breakpoint
CREATE TABLE "course_ce_approvals" (
	"course_id" text NOT NULL,
	"state" text NOT NULL,
	"approval_number" text NOT NULL,
	CONSTRAINT "course_ce_approvals_course_id_state_pk" PRIMARY KEY("course_id","state"),
	CONSTRAINT "course_ce_approvals_state_check" CHECK (state in ('AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY'))
);
--> statement-breakpoint
CREATE TABLE "member_licences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"state" text NOT NULL,
	"licence_type" text NOT NULL,
	"licence_number" text DEFAULT '' NOT NULL,
	"renews_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_licences_type_check" CHECK (licence_type in ('salesperson', 'broker')),
	CONSTRAINT "member_licences_state_check" CHECK (state in ('AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY'))
);
--> statement-breakpoint
CREATE TABLE "stored_files_released" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "ce_hours" numeric(5, 1);--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "ce_topic" text;--> statement-breakpoint
ALTER TABLE "ce_entries" ADD CONSTRAINT "ce_entries_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ce_entries" ADD CONSTRAINT "ce_entries_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ce_entries" ADD CONSTRAINT "ce_entries_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ce_reminders_sent" ADD CONSTRAINT "ce_reminders_sent_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_ce_approvals" ADD CONSTRAINT "course_ce_approvals_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_licences" ADD CONSTRAINT "member_licences_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ce_entries_member_state_idx" ON "ce_entries" USING btree ("member_id","state","completed_on","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ce_entries_certificate_state_idx" ON "ce_entries" USING btree ("certificate_id","state") WHERE certificate_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "member_licences_member_state_idx" ON "member_licences" USING btree ("member_id","state");--> statement-breakpoint
CREATE INDEX "member_licences_renews_idx" ON "member_licences" USING btree ("renews_on","id");--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_ce_check" CHECK (ce_topic is null or ce_topic in ('ethics', 'fair_housing', 'agency', 'legal_update', 'contracts', 'risk_management', 'elective'));--> statement-breakpoint
CREATE TRIGGER "ce_requirements_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ce_requirements" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "course_ce_approvals_public_data" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "course_ce_approvals" FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('public');
--> statement-breakpoint
CREATE TRIGGER "member_licences_member_keyed_in" AFTER INSERT ON "member_licences" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "member_licences_member_keyed_moved" AFTER UPDATE ON "member_licences" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "member_licences_member_keyed_out" AFTER DELETE ON "member_licences" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "ce_entries_member_keyed_in" AFTER INSERT ON "ce_entries" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
CREATE TRIGGER "ce_entries_member_keyed_out" AFTER DELETE ON "ce_entries" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "announce_keyed_change"('member', 'SELECT changed.member_id::text FROM %s');
--> statement-breakpoint
-- A CE certificate's file is released with its entry, however the entry goes (removed, or with the account).
CREATE FUNCTION "release_ce_certificate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stored_files_released (storage_key) VALUES (OLD.certificate_key) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ce_entries_release_certificate" AFTER DELETE ON "ce_entries"
  FOR EACH ROW WHEN (OLD.certificate_key IS NOT NULL) EXECUTE FUNCTION "release_ce_certificate"();
