-- The staff's lists of courses, resources and staff accounts are read a page at a time after the
-- last row shown (docs/decisions/013): courses and resources in their order (position, title, id),
-- the accounts oldest first (created_at, id).
CREATE INDEX "courses_position_idx" ON "courses" USING btree ("position","title","id");--> statement-breakpoint
CREATE INDEX "resources_position_idx" ON "resources" USING btree ("position","title","id");--> statement-breakpoint
CREATE INDEX "staff_accounts_created_idx" ON "staff_accounts" USING btree ("created_at","id");
